/// The tables other frameworks' caches are made of, as their published schemas create them
/// (Rails Solid Cache's migration, Laravel's `cache` migration, Apple URLCache's `Cache.db`, the
/// LEGO client's `entity_cache`), for tests that build such files without the framework.
public enum ForeignSchemas {
    public static let solidCache = """
        CREATE TABLE "solid_cache_entries" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "key" blob(1024) NOT NULL,
        "value" blob(536870912) NOT NULL, "created_at" datetime(6) NOT NULL, "key_hash" integer(8) NOT NULL,
        "byte_size" integer(4) NOT NULL);
        CREATE UNIQUE INDEX "index_solid_cache_entries_on_key_hash" ON "solid_cache_entries" ("key_hash");
        CREATE INDEX "index_solid_cache_entries_on_byte_size" ON "solid_cache_entries" ("byte_size");
        """

    public static let laravel = """
        CREATE TABLE "cache" ("key" varchar not null, "value" text not null, "expiration" integer not null,
        primary key ("key"));
        CREATE TABLE "cache_locks" ("key" varchar not null, "owner" varchar not null, "expiration" integer not null,
        primary key ("key"));
        """

    public static let urlCache = """
        CREATE TABLE cfurl_cache_response(entry_ID INTEGER PRIMARY KEY AUTOINCREMENT UNIQUE, version INTEGER,
        hash_value INTEGER, storage_policy INTEGER, request_key TEXT UNIQUE,
        time_stamp NOT NULL DEFAULT CURRENT_TIMESTAMP, partition TEXT);
        CREATE TABLE cfurl_cache_blob_data(entry_ID INTEGER PRIMARY KEY, response_object BLOB, request_object BLOB,
        proto_props BLOB, user_info BLOB);
        CREATE TABLE cfurl_cache_receiver_data(entry_ID INTEGER PRIMARY KEY, isDataOnFS INTEGER, receiver_data BLOB);
        """

    public static let entityCache = """
        CREATE TABLE entity_cache (table_name TEXT NOT NULL, primary_key TEXT NOT NULL, data BLOB NOT NULL,
        created_at DOUBLE NOT NULL, expires_at DOUBLE, PRIMARY KEY (table_name, primary_key));
        """
}
