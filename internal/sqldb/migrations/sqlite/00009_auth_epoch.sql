-- +goose Up
-- auth_epoch counts the commits that change what authenticating a request reads of its key: a revocation, a deleted
-- key, an organisation's change count (org_changes). A process keeps the keys' states it read at one count and
-- reads them again only once the count has moved, whichever process (a server, a command line) committed the
-- change. SQLite only: its writers take turns anyway, where on PostgreSQL one row bumped by every writer would
-- make them wait for each other.
CREATE TABLE auth_epoch (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    n  INTEGER NOT NULL
);
INSERT INTO auth_epoch (id, n) VALUES (1, 0);
-- +goose StatementBegin
CREATE TRIGGER auth_epoch_key_revoked AFTER UPDATE OF revoked_at ON api_keys BEGIN
    UPDATE auth_epoch SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER auth_epoch_key_deleted AFTER DELETE ON api_keys BEGIN
    UPDATE auth_epoch SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER auth_epoch_change_counted AFTER UPDATE ON org_changes BEGIN
    UPDATE auth_epoch SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER auth_epoch_change_first AFTER INSERT ON org_changes BEGIN
    UPDATE auth_epoch SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER auth_epoch_changes_deleted AFTER DELETE ON org_changes BEGIN
    UPDATE auth_epoch SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER auth_epoch_changes_deleted;
DROP TRIGGER auth_epoch_change_first;
DROP TRIGGER auth_epoch_change_counted;
DROP TRIGGER auth_epoch_key_deleted;
DROP TRIGGER auth_epoch_key_revoked;
DROP TABLE auth_epoch;
