-- +goose Up
-- Runs that found something (a signal other than no_change) are listed apart from quiet runs. alerts.signal_type
-- copies the type of the alert's signal, so that alerts are filtered without reading signals; the partial indexes
-- list either kind newest first without stepping over the other.
ALTER TABLE alerts ADD COLUMN signal_type TEXT NOT NULL DEFAULT '';
UPDATE alerts SET signal_type = COALESCE((SELECT s.type FROM signals s WHERE s.id = alerts.signal_id), '');
CREATE INDEX signals_org_changed ON signals (org_id, created_at DESC, id DESC) WHERE type <> 'no_change';
CREATE INDEX signals_entity_changed ON signals (entity_id, created_at DESC, id DESC) WHERE type <> 'no_change';
CREATE INDEX alerts_org_changed ON alerts (org_id, created_at DESC, id DESC) WHERE signal_type <> 'no_change';
CREATE INDEX alerts_entity_changed ON alerts (entity_id, created_at DESC, id DESC) WHERE signal_type <> 'no_change';
-- latest_change keeps the compact JSON of an entity's newest signal that found something, 'null' when it has none;
-- an empty value (entities whose signals predate this column) is read from the signals table instead.
ALTER TABLE entities ADD COLUMN latest_change TEXT NOT NULL DEFAULT '';
UPDATE entities SET latest_change = 'null'
    WHERE NOT EXISTS (SELECT 1 FROM signals s WHERE s.entity_id = entities.id AND s.type <> 'no_change');

-- +goose Down
DROP INDEX alerts_entity_changed;
DROP INDEX alerts_org_changed;
DROP INDEX signals_entity_changed;
DROP INDEX signals_org_changed;
ALTER TABLE alerts DROP COLUMN signal_type;
ALTER TABLE entities DROP COLUMN latest_change;
