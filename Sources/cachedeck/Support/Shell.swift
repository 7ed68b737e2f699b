import Foundation

/// Words for a command line a person can paste back into a POSIX shell.
enum Shell {
    /// `word` as is when it holds only safe characters, else in single quotes.
    static func quoted(_ word: String) -> String {
        let safe = word.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "-_./:=@%+,".unicodeScalars.contains(scalar))
        }
        if safe && !word.isEmpty { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
