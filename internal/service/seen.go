package service

import (
	"context"
	"errors"
	"time"

	"radar"
)

// MarkSeen moves the caller's read position (its API key, or its web user) forwards: to the creation time of the
// signal upTo, or to just before the instant before (cut to now). Exactly one of them must be given. A
// position further already stays where it is. It returns the position kept.
func (s *Service) MarkSeen(ctx context.Context, p *radar.Principal, upTo string, before *radar.Time) (radar.Time, error) {
	if err := p.Require(radar.ScopeTrackerRead); err != nil {
		return radar.Time{}, err
	}
	var probs radar.Problems
	switch {
	case upTo == "" && before == nil:
		probs.Add("upTo", "give upTo (a signal id) or before (a timestamp)")
	case upTo != "" && before != nil:
		probs.Add("before", "not combinable with upTo; give one of them")
	case upTo != "":
		if err := checkID("upTo", upTo); err != nil {
			return radar.Time{}, err
		}
	}
	if err := probs.Err(); err != nil {
		return radar.Time{}, err
	}
	var through radar.Time
	if before != nil {
		through = radar.NewTime(before.Add(-time.Microsecond))
		if now := s.nowTime(); through.After(now.Time) {
			through = now
		}
	} else {
		x, err := s.store.Signal(ctx, p.OrgID, upTo)
		if errors.Is(err, radar.ErrNotFound) {
			probs.Addf("upTo", "no signal %s in this organisation", upTo)
			return radar.Time{}, probs.Err()
		}
		if err != nil {
			return radar.Time{}, err
		}
		through = x.CreatedAt
	}
	return s.store.MarkSeen(ctx, p.OrgID, p.KeyID, through)
}

// seenThrough is the position after which unseen items start for the caller, when unseen is asked for: nil
// when the caller has marked nothing yet (everything is unseen) or unseen is false.
func (s *Service) seenThrough(ctx context.Context, p *radar.Principal, unseen bool) (*radar.Time, error) {
	if !unseen {
		return nil, nil
	}
	return s.store.ReadPosition(ctx, p.OrgID, p.KeyID)
}
