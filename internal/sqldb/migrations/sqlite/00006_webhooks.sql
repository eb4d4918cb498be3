-- +goose Up
-- Webhook endpoints of an organisation, the events queued for each (one row per event and endpoint, whose id is
-- the webhook-id of every attempt), and the log of delivery attempts, kept 30 days.
CREATE TABLE webhook_endpoints (
    id                 TEXT PRIMARY KEY,
    org_id             TEXT NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    url                TEXT NOT NULL,
    kind               TEXT NOT NULL,
    events             TEXT NOT NULL,
    enabled            INTEGER NOT NULL,
    secret             TEXT NOT NULL,
    prev_secret        TEXT NOT NULL DEFAULT '',
    prev_secret_until  INTEGER,
    failing_since      INTEGER,
    disabled_reason    TEXT NOT NULL DEFAULT '',
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL
);
CREATE INDEX webhook_endpoints_org ON webhook_endpoints (org_id, created_at DESC, id DESC);

CREATE TABLE webhook_messages (
    id           TEXT PRIMARY KEY,
    org_id       TEXT NOT NULL,
    endpoint_id  TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_type   TEXT NOT NULL,
    payload      TEXT NOT NULL,
    status       TEXT NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    created_at   INTEGER NOT NULL
);
CREATE INDEX webhook_messages_endpoint ON webhook_messages (endpoint_id, created_at);
CREATE INDEX webhook_messages_created ON webhook_messages (created_at);

CREATE TABLE webhook_deliveries (
    id            TEXT PRIMARY KEY,
    org_id        TEXT NOT NULL,
    endpoint_id   TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    message_id    TEXT NOT NULL,
    event_type    TEXT NOT NULL,
    attempt       INTEGER NOT NULL,
    status_code   INTEGER,
    latency_ms    INTEGER NOT NULL,
    success       INTEGER NOT NULL,
    response      TEXT NOT NULL,
    error         TEXT NOT NULL,
    created_at    INTEGER NOT NULL
);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at DESC, id DESC);
CREATE INDEX webhook_deliveries_created ON webhook_deliveries (created_at);

-- +goose Down
DROP TABLE webhook_deliveries;
DROP TABLE webhook_messages;
DROP TABLE webhook_endpoints;
