// Package webhook delivers Radar's events to the endpoints organisations register: signed Standard Webhooks
// JSON, Slack Block Kit messages and Microsoft Teams Adaptive Cards. Events are queued with their River jobs by
// the transactions that produce them; the worker here sends each one, retries it with a backoff spread over
// about a day under the same webhook-id, logs every attempt, disables an endpoint that keeps failing and tells
// the organisation's owners.
package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"time"

	"radar"
)

// Sign returns the v1 signature of a delivery as the webhook-signature header carries it: "v1," and the base64
// HMAC-SHA256, keyed with the secret's key, of "id.timestamp.body".
func Sign(secret, id string, ts time.Time, body []byte) (string, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, radar.WebhookSecretPrefix))
	if err != nil || len(key) == 0 {
		return "", errors.New("webhook: malformed signing secret")
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(id))
	m.Write([]byte{'.'})
	m.Write([]byte(strconv.FormatInt(ts.Unix(), 10)))
	m.Write([]byte{'.'})
	m.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(m.Sum(nil)), nil
}

// Signature is the webhook-signature header of a delivery to ep at now: the signature with the current secret
// and, while a rotation's overlap lasts, the one with the previous secret, separated by a space.
func Signature(ep *radar.WebhookEndpoint, id string, now time.Time, body []byte) (string, error) {
	sig, err := Sign(ep.Secret, id, now, body)
	if err != nil {
		return "", err
	}
	if ep.PreviousSecret != "" && ep.PreviousSecretExpiresAt != nil && now.Before(ep.PreviousSecretExpiresAt.Time) {
		old, err := Sign(ep.PreviousSecret, id, now, body)
		if err != nil {
			return "", err
		}
		sig += " " + old
	}
	return sig, nil
}
