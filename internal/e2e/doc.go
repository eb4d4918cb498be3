// Package e2e holds the end-to-end tests of Radar as it runs in production: the radar binary started as
// several replicas sharing one PostgreSQL database and one Redis, driven over HTTP like a client would.
// The tests run when RADAR_TEST_POSTGRES_URL and RADAR_TEST_REDIS_URL are set and skip otherwise.
package e2e
