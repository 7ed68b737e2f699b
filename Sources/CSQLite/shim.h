#include <sqlite3.h>

/* sqlite3_db_config is variadic, which Swift cannot call: whether closing the last
   connection checkpoints the WAL into the database file. */
static inline int cachedeck_checkpoint_on_close(sqlite3 *db, int enabled) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, !enabled, (int *)0);
}
