// The tests reach the private redis-server through this module, as the bench does.
@_exported import LocalRedis
