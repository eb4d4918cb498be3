-- +goose Up
-- seen_items remembers the items a tracker run has analysed, so that the next run reports only new ones.
CREATE TABLE seen_items (
    entity_id  TEXT NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    item_key   TEXT NOT NULL,
    seen_at    INTEGER NOT NULL,
    PRIMARY KEY (entity_id, item_key)
);

-- page_snapshots keeps the previous run's copy of each page, for change detection and conditional requests.
CREATE TABLE page_snapshots (
    entity_id   TEXT NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    url         TEXT NOT NULL,
    snapshot    TEXT NOT NULL,
    fetched_at  INTEGER NOT NULL,
    PRIMARY KEY (entity_id, url)
);

-- source_state counts the consecutive failures of each source of an entity.
CREATE TABLE source_state (
    entity_id             TEXT NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    source                TEXT NOT NULL,
    ok                    INTEGER NOT NULL,
    consecutive_failures  INTEGER NOT NULL,
    last_error            TEXT NOT NULL DEFAULT '',
    updated_at            INTEGER NOT NULL,
    PRIMARY KEY (entity_id, source)
);

ALTER TABLE outbox ADD COLUMN claimed_at INTEGER;
CREATE INDEX outbox_entity ON outbox (entity_id);
CREATE INDEX leads_source ON leads (source_entity_id);

-- +goose Down
DROP INDEX leads_source;
DROP INDEX outbox_entity;
ALTER TABLE outbox DROP COLUMN claimed_at;
DROP TABLE source_state;
DROP TABLE page_snapshots;
DROP TABLE seen_items;
