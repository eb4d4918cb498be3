-- +goose Up
-- digest is how often an entity's recipients get a digest e-mail of its runs that found something: off, daily or
-- weekly. An organisation sends its digests at digest_hour o'clock in digest_time_zone (an IANA name).
ALTER TABLE entities ADD COLUMN digest TEXT NOT NULL DEFAULT 'off';
ALTER TABLE orgs ADD COLUMN digest_hour INTEGER NOT NULL DEFAULT 8;
ALTER TABLE orgs ADD COLUMN digest_time_zone TEXT NOT NULL DEFAULT 'UTC';
-- One row per digest of a recipient and period, keyed by the start of the period (Unix microseconds), so that a
-- repeated job finds the digest it sent. It covers the runs after since up to through; status is sending while a
-- job holds it (claimed_at), then sent, kept (no SMTP server) or empty (nothing to send, so nothing was sent).
CREATE TABLE digests (
    org_id        TEXT    NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    recipient     TEXT    NOT NULL,
    period        TEXT    NOT NULL,
    period_start  BIGINT  NOT NULL,
    status        TEXT    NOT NULL,
    since         BIGINT  NOT NULL,
    through       BIGINT  NOT NULL,
    items         INTEGER NOT NULL DEFAULT 0,
    subject       TEXT    NOT NULL DEFAULT '',
    body_text     TEXT    NOT NULL DEFAULT '',
    claimed_at    BIGINT,
    sent_at       BIGINT,
    PRIMARY KEY (org_id, recipient, period, period_start)
);
-- A recipient who followed a digest's unsubscribe link gets no more digests from the organisation.
CREATE TABLE digest_optouts (
    org_id      TEXT   NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    recipient   TEXT   NOT NULL,
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (org_id, recipient)
);
CREATE INDEX entities_digest ON entities (org_id) WHERE digest <> 'off';

-- +goose Down
DROP INDEX entities_digest;
DROP TABLE digest_optouts;
DROP TABLE digests;
ALTER TABLE orgs DROP COLUMN digest_time_zone;
ALTER TABLE orgs DROP COLUMN digest_hour;
ALTER TABLE entities DROP COLUMN digest;
