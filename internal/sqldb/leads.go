package sqldb

import (
	"context"
	"database/sql"
	"fmt"

	"radar"
)

const leadColumns = `x.id, x.org_id, x.lead_key, x.person_name, x.person_role, x.linkedin_url, x.twitter_url, x.github_url,
	x.company_name, x.company_website, x.company_summary, x.relation, x.source_entity_id, x.source_company_name,
	x.sector, x.stage, x.evidence, x.decision_status, x.decided_at, x.tracked_entity_id, x.created_at, x.updated_at`

func scanLead(r row) (*radar.Lead, error) {
	var (
		l                radar.Lead
		evidence         string
		decided          sql.NullInt64
		created, updated int64
	)
	err := r.Scan(&l.ID, &l.OrgID, &l.Key, &l.PersonName, &l.PersonRole, &l.LinkedinURL, &l.TwitterURL, &l.GithubURL,
		&l.Company.Name, &l.Company.Website, &l.Company.Summary, &l.Relation, &l.Source.EntityID, &l.Source.CompanyName,
		&l.Sector, &l.Stage, &evidence, &l.Decision.Status, &decided, &l.Decision.TrackedEntityID, &created, &updated)
	if err != nil {
		return nil, err
	}
	l.Decision.DecidedAt = timePtr(decided)
	l.CreatedAt, l.UpdatedAt = radar.TimeFromMicros(created), radar.TimeFromMicros(updated)
	l.Evidence = []radar.Evidence{}
	if err := unmarshalText(evidence, &l.Evidence); err != nil {
		return nil, err
	}
	return &l, nil
}

// Lead reads one lead.
func (db *DB) Lead(ctx context.Context, orgID, id string) (*radar.Lead, error) {
	return db.lead(ctx, db.eng.reader(), orgID, id)
}

func (db *DB) lead(ctx context.Context, q querier, orgID, id string) (*radar.Lead, error) {
	l, err := scanLead(q.QueryRow(ctx, `SELECT `+leadColumns+` FROM leads x WHERE x.id = $1 AND x.org_id = $2`, id, orgID))
	if isNoRows(err) {
		return nil, radar.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqldb: lead: %w", err)
	}
	return l, nil
}

// Leads lists leads, newest first.
func (db *DB) Leads(ctx context.Context, f radar.LeadFilter) ([]*radar.Lead, error) {
	w := where{}
	w.add("x.org_id = %s", f.OrgID)
	if f.Decision != "" {
		w.add("x.decision_status = %s", f.Decision)
	}
	if f.SourceEntityID != "" {
		w.add("x.source_entity_id = %s", f.SourceEntityID)
	}
	if f.Stage != "" {
		w.add("x.stage = %s", f.Stage)
	}
	if f.Name != "" {
		w.add(`lower(x.person_name) LIKE %s ESCAPE '\'`, likePattern(f.Name))
	}
	if f.Sectors != nil {
		if len(f.Sectors) == 0 {
			w.conds = append(w.conds, "1 = 0")
		} else {
			w.in("x.sector", f.Sectors)
		}
	}
	w.page("x", f.Page)
	rs, err := db.eng.reader().Query(ctx, `SELECT `+leadColumns+` FROM leads x`+w.sql()+` ORDER BY x.created_at DESC, x.id DESC`+w.limit(f.Page), w.args...)
	if err != nil {
		return nil, fmt.Errorf("sqldb: leads: %w", err)
	}
	defer rs.Close()
	var out []*radar.Lead
	for rs.Next() {
		l, err := scanLead(rs)
		if err != nil {
			return nil, fmt.Errorf("sqldb: leads: %w", err)
		}
		out = append(out, l)
	}
	return out, rs.Err()
}

// DecideLead records a decision on a lead.
func (db *DB) DecideLead(ctx context.Context, orgID, id, status, trackedEntityID string, at radar.Time) (*radar.Lead, error) {
	var l *radar.Lead
	err := db.tx(ctx, func(q querier, _ any) error {
		n, err := q.Exec(ctx, `UPDATE leads SET decision_status = $1, decided_at = $2, updated_at = $2,
			tracked_entity_id = CASE WHEN $3 = '' THEN tracked_entity_id ELSE $3 END
			WHERE id = $4 AND org_id = $5`, status, at.Micros(), trackedEntityID, id, orgID)
		if err != nil {
			return fmt.Errorf("sqldb: decide lead: %w", err)
		}
		if n == 0 {
			return radar.ErrNotFound
		}
		if l, err = db.lead(ctx, q, orgID, id); err != nil {
			return err
		}
		return db.changed(ctx, q, orgID)
	})
	return l, err
}
