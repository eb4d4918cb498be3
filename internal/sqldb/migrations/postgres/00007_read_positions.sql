-- +goose Up
-- A reader (an API key, or a web user as "user:<id>") has read every signal and alert of its organisation created
-- at or before seen_through (Unix microseconds); the position only moves forwards.
CREATE TABLE read_positions (
    org_id       TEXT   NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    reader       TEXT   NOT NULL,
    seen_through BIGINT NOT NULL,
    PRIMARY KEY (org_id, reader)
);

-- +goose Down
DROP TABLE read_positions;
