-- +goose Up
-- latest_signal keeps the compact JSON of an entity's newest signal, 'null' when it has none; an empty value
-- (entities that had signals before this column existed) is read from the signals table instead.
ALTER TABLE entities ADD COLUMN latest_signal TEXT NOT NULL DEFAULT '';
UPDATE entities SET latest_signal = 'null' WHERE NOT EXISTS (SELECT 1 FROM signals s WHERE s.entity_id = entities.id);

-- +goose Down
ALTER TABLE entities DROP COLUMN latest_signal;
