-- +goose Up
-- org_changes counts the committed changes to an organisation's companies, signals, alerts and leads. Every
-- transaction that changes them adds one as its last statement, so a list read at one count holds until the count
-- moves; the sum over an organisation's rows is its count. A transaction bumps one of a few rows (shards), chosen
-- at random, so that concurrent writers of one organisation rarely wait for each other.
CREATE TABLE org_changes (
    org_id TEXT NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    shard  INTEGER NOT NULL,
    n      INTEGER NOT NULL,
    PRIMARY KEY (org_id, shard)
);

-- +goose Down
DROP TABLE org_changes;
