#!/usr/bin/env bash
# The PostgreSQL and Redis part of compare.sh: GET /api/v1/tracker (25 entities) and the other operations on one
# replica, the list on two, and the machine's ceiling. See docs/load/README.md.
exec "$(dirname "$0")/compare.sh" postgres "$@"
