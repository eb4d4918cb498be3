-- +goose Up
CREATE TABLE orgs (
    id          TEXT PRIMARY KEY,
    slug        TEXT NOT NULL UNIQUE,
    name        TEXT NOT NULL,
    created_at  INTEGER NOT NULL
);

CREATE TABLE org_versions (
    org_id   TEXT PRIMARY KEY REFERENCES orgs (id) ON DELETE CASCADE,
    version  INTEGER NOT NULL
);

CREATE TABLE settings (
    name   TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);

CREATE TABLE api_keys (
    id            TEXT PRIMARY KEY,
    org_id        TEXT NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    name          TEXT NOT NULL,
    scopes        TEXT NOT NULL,
    secret_hash   BLOB NOT NULL,
    expires_at    INTEGER,
    revoked_at    INTEGER,
    last_used_at  INTEGER,
    created_at    INTEGER NOT NULL
);
CREATE INDEX api_keys_org ON api_keys (org_id, created_at);

CREATE TABLE users (
    id             TEXT PRIMARY KEY,
    org_id         TEXT NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    email          TEXT NOT NULL UNIQUE,
    password_hash  TEXT NOT NULL,
    role           TEXT NOT NULL,
    created_at     INTEGER NOT NULL
);

CREATE TABLE sessions (
    token_hash  BLOB PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    org_id      TEXT NOT NULL,
    expires_at  INTEGER NOT NULL,
    created_at  INTEGER NOT NULL
);

CREATE TABLE entities (
    id                    TEXT PRIMARY KEY,
    org_id                TEXT NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    company_name          TEXT NOT NULL,
    company_website       TEXT NOT NULL,
    company_linkedin_url  TEXT NOT NULL DEFAULT '',
    company_twitter_url   TEXT NOT NULL DEFAULT '',
    company_github_url    TEXT NOT NULL DEFAULT '',
    company_summary       TEXT NOT NULL DEFAULT '',
    things_to_track       TEXT NOT NULL,
    alert_emails          TEXT NOT NULL,
    email_alerts_enabled  INTEGER NOT NULL,
    cadence_days          INTEGER NOT NULL,
    status                TEXT NOT NULL,
    tags                  TEXT NOT NULL,
    sectors               TEXT NOT NULL,
    stage                 TEXT NOT NULL,
    policy                TEXT NOT NULL,
    enrichment_status     TEXT NOT NULL,
    last_scraped_at       INTEGER,
    scrape_health_reason  TEXT NOT NULL,
    next_run_at           INTEGER,
    running_since         INTEGER,
    created_at            INTEGER NOT NULL,
    updated_at            INTEGER NOT NULL,
    version               INTEGER NOT NULL
);
CREATE INDEX entities_org_order ON entities (org_id, created_at DESC, id DESC);
CREATE INDEX entities_due ON entities (next_run_at) WHERE status = 'ok';

CREATE TABLE founders (
    id            TEXT PRIMARY KEY,
    entity_id     TEXT NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    position      INTEGER NOT NULL,
    name          TEXT NOT NULL,
    linkedin_url  TEXT NOT NULL DEFAULT '',
    twitter_url   TEXT NOT NULL DEFAULT '',
    github_url    TEXT NOT NULL DEFAULT ''
);
CREATE INDEX founders_entity ON founders (entity_id, position);

-- entity_keys holds the normalised website and profile URLs that identify an already tracked company.
CREATE TABLE entity_keys (
    org_id     TEXT NOT NULL,
    ident_key  TEXT NOT NULL,
    entity_id  TEXT NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    PRIMARY KEY (org_id, ident_key)
);
CREATE INDEX entity_keys_entity ON entity_keys (entity_id);

CREATE TABLE entity_sectors (
    entity_id  TEXT NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    path       TEXT NOT NULL,
    PRIMARY KEY (entity_id, path)
);
CREATE INDEX entity_sectors_path ON entity_sectors (path);

CREATE TABLE idempotency (
    org_id        TEXT NOT NULL,
    idem_key      TEXT NOT NULL,
    scope         TEXT NOT NULL,
    request_hash  TEXT NOT NULL,
    state         TEXT NOT NULL,
    entity_id     TEXT NOT NULL DEFAULT '',
    status_code   INTEGER NOT NULL DEFAULT 0,
    created_at    INTEGER NOT NULL,
    PRIMARY KEY (org_id, idem_key)
);

CREATE TABLE runs (
    id           TEXT PRIMARY KEY,
    org_id       TEXT NOT NULL,
    entity_id    TEXT NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    run_trigger  TEXT NOT NULL,
    started_at   INTEGER NOT NULL,
    finished_at  INTEGER
);
CREATE INDEX runs_entity ON runs (entity_id, started_at DESC);

CREATE TABLE signals (
    id               TEXT PRIMARY KEY,
    org_id           TEXT NOT NULL,
    entity_id        TEXT NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    run_id           TEXT NOT NULL UNIQUE,
    company_name     TEXT NOT NULL,
    type             TEXT NOT NULL,
    severity         TEXT NOT NULL,
    recommendation   TEXT NOT NULL,
    needs_attention  INTEGER NOT NULL,
    summary          TEXT NOT NULL,
    analysis         TEXT NOT NULL,
    evidence         TEXT NOT NULL,
    findings         TEXT NOT NULL,
    sources          TEXT NOT NULL,
    analyser         TEXT NOT NULL,
    created_at       INTEGER NOT NULL
);
CREATE INDEX signals_org_order ON signals (org_id, created_at DESC, id DESC);
CREATE INDEX signals_entity ON signals (entity_id, created_at DESC, id DESC);

CREATE TABLE alerts (
    id                TEXT PRIMARY KEY,
    org_id            TEXT NOT NULL,
    entity_id         TEXT NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    signal_id         TEXT NOT NULL,
    run_id            TEXT NOT NULL UNIQUE,
    company_name      TEXT NOT NULL,
    outcome           TEXT NOT NULL,
    reason            TEXT NOT NULL,
    recipients        TEXT NOT NULL,
    subject           TEXT NOT NULL,
    rule_evaluations  TEXT NOT NULL,
    sent_at           INTEGER,
    created_at        INTEGER NOT NULL
);
CREATE INDEX alerts_org_order ON alerts (org_id, created_at DESC, id DESC);
CREATE INDEX alerts_entity ON alerts (entity_id, created_at DESC, id DESC);

CREATE TABLE outbox (
    id          TEXT PRIMARY KEY,
    org_id      TEXT NOT NULL,
    alert_id    TEXT NOT NULL UNIQUE,
    entity_id   TEXT NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    recipients  TEXT NOT NULL,
    subject     TEXT NOT NULL,
    body_text   TEXT NOT NULL,
    body_html   TEXT NOT NULL,
    status      TEXT NOT NULL,
    attempts    INTEGER NOT NULL DEFAULT 0,
    last_error  TEXT NOT NULL DEFAULT '',
    sent_at     INTEGER,
    created_at  INTEGER NOT NULL
);
CREATE INDEX outbox_org_order ON outbox (org_id, created_at DESC, id DESC);

CREATE TABLE leads (
    id                   TEXT PRIMARY KEY,
    org_id               TEXT NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    lead_key             TEXT NOT NULL,
    person_name          TEXT NOT NULL,
    person_role          TEXT NOT NULL DEFAULT '',
    linkedin_url         TEXT NOT NULL DEFAULT '',
    twitter_url          TEXT NOT NULL DEFAULT '',
    github_url           TEXT NOT NULL DEFAULT '',
    company_name         TEXT NOT NULL,
    company_website      TEXT NOT NULL DEFAULT '',
    company_summary      TEXT NOT NULL DEFAULT '',
    relation             TEXT NOT NULL,
    source_entity_id     TEXT NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    source_company_name  TEXT NOT NULL,
    sector               TEXT NOT NULL DEFAULT '',
    stage                TEXT NOT NULL,
    evidence             TEXT NOT NULL,
    decision_status      TEXT NOT NULL,
    decided_at           INTEGER,
    tracked_entity_id    TEXT NOT NULL DEFAULT '',
    created_at           INTEGER NOT NULL,
    updated_at           INTEGER NOT NULL,
    UNIQUE (org_id, lead_key)
);
CREATE INDEX leads_org_order ON leads (org_id, created_at DESC, id DESC);

-- +goose Down
DROP TABLE leads;
DROP TABLE outbox;
DROP TABLE alerts;
DROP TABLE signals;
DROP TABLE runs;
DROP TABLE idempotency;
DROP TABLE entity_sectors;
DROP TABLE entity_keys;
DROP TABLE founders;
DROP TABLE entities;
DROP TABLE sessions;
DROP TABLE users;
DROP TABLE api_keys;
DROP TABLE settings;
DROP TABLE org_versions;
DROP TABLE orgs;
