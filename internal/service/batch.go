package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"

	"radar"
)

// MaxBatch bounds the items of a bulk create.
const MaxBatch = 500

// Batch item statuses.
const (
	BatchCreated  = "created"
	BatchExisting = "existing"
	BatchError    = "error"
)

// BatchInput is one item of a bulk create: the create body, or why it could not be read.
type BatchInput struct {
	Input radar.CreateInput
	Err   error
}

// BatchItem is the outcome of one item of a bulk create.
type BatchItem struct {
	Index  int           `json:"index" doc:"The item's position in items, from 0"`
	Status string        `json:"status" enum:"created,existing,error" doc:"created: a new company is tracked; existing: a tracked company was reused and updated; error: nothing was saved for this item"`
	Entity *radar.Entity `json:"entity,omitempty" doc:"The tracked company (created or existing)"`
	Error  *radar.Error  `json:"error,omitempty" doc:"Why the item failed (error only), as in the error envelope"`
}

// CreateBatch tracks each item as CreateEntity would: the same validation, the same reuse of a tracked company
// and the same background jobs. An item that fails leaves the others alone. With an idempotency key, item i
// runs under a key of its own derived from it, so that a retried batch replays what each item did.
func (s *Service) CreateBatch(ctx context.Context, p *radar.Principal, items []BatchInput, idemKey string) ([]BatchItem, error) {
	if err := p.Require(radar.ScopeTrackerWrite); err != nil {
		return nil, err
	}
	var probs radar.Problems
	if len(items) < 1 || len(items) > MaxBatch {
		probs.Addf("items", "must have 1-%d items, got %d", MaxBatch, len(items))
	}
	if err := probs.Err(); err != nil {
		return nil, err
	}
	if err := validateIdempotencyKey(idemKey); err != nil {
		return nil, err
	}
	var prefix string
	if idemKey != "" {
		sum := sha256.Sum256([]byte(idemKey))
		prefix = "batch-" + hex.EncodeToString(sum[:20]) + "-"
	}
	out := make([]BatchItem, len(items))
	for i, it := range items {
		out[i] = BatchItem{Index: i, Status: BatchError}
		err := it.Err
		var r *CreateResult
		if err == nil {
			r, err = s.createItem(ctx, p, it.Input, prefix, i)
		}
		if err != nil {
			e, ok := radar.AsError(err)
			if !ok || e.Code == radar.EInternal {
				s.logger.ErrorContext(ctx, "bulk create item", "index", i, "err", err)
				e = radar.Errorf(radar.EInternal, "internal error while saving this item; retry the batch")
			}
			out[i].Error = e
			continue
		}
		out[i].Entity = r.Entity
		if r.Created || (r.Replayed && r.FirstStatus == http.StatusCreated) {
			out[i].Status = BatchCreated
		} else {
			out[i].Status = BatchExisting
		}
	}
	return out, nil
}

func (s *Service) createItem(ctx context.Context, p *radar.Principal, c radar.CreateInput, prefix string, i int) (*CreateResult, error) {
	in := c.EntityInput
	if err := s.validateInput(&in, c.Confirmed, true); err != nil {
		return nil, err
	}
	trimInput(&in)
	key := ""
	if prefix != "" {
		key = prefix + strconv.Itoa(i)
	}
	return s.create(ctx, p, in, key, "batch", nil)
}

// CheckCreate validates a create body as CreateEntity would, without saving anything, and returns the tracked
// company it would reuse and update, or nil when it would track a new one.
func (s *Service) CheckCreate(ctx context.Context, p *radar.Principal, c radar.CreateInput) (*radar.Entity, error) {
	if err := p.Require(radar.ScopeTrackerWrite); err != nil {
		return nil, err
	}
	in := c.EntityInput
	if err := s.validateInput(&in, c.Confirmed, true); err != nil {
		return nil, err
	}
	trimInput(&in)
	e := &radar.Entity{OrgID: p.OrgID}
	s.applyInput(e, in)
	existing, err := s.store.FindExistingEntity(ctx, p.OrgID, radar.IdentityKeys(e))
	if errors.Is(err, radar.ErrNotFound) {
		return nil, nil
	}
	return existing, err
}
