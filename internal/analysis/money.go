package analysis

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Rough fixed conversion rates to US dollars; amounts only decide thresholds, so precision does not matter.
const (
	usdPerEUR = 1.08
	usdPerGBP = 1.27
)

// Money patterns over lowercased text. moneyFrag needs a currency; amountFrag also takes a bare number with a
// unit such as "1.2b" or "300 million".
const (
	moneyFrag = `(?:(?:us\$|\$|€|£|\b(?:usd|eur|gbp) ?) ?\d[\d.,]*(?: ?(?:k|m|mm|mn|b|bn|million|billion|thousand))?\b|` +
		`\b\d[\d.,]*(?: ?(?:k|m|mm|mn|b|bn|million|billion|thousand))? ?(?:usd|eur|gbp|dollars|euros|pounds)\b)`
	amountFrag = `(?:` + moneyFrag + `|\b\d[\d.,]* ?(?:k|m|mm|mn|b|bn|million|billion)\b)`
)

var (
	moneyPrefixRe = regexp.MustCompile(`(us\$|\$|€|£|\b(?:usd|eur|gbp) ?) ?(\d[\d.,]*)(?: ?(k|m|mm|mn|b|bn|million|billion|thousand)\b)?`)
	moneySuffixRe = regexp.MustCompile(`\b(\d[\d.,]*)(?: ?(k|m|mm|mn|b|bn|million|billion|thousand))? ?(usd|eur|gbp|dollars|euros|pounds)\b`)
	moneyBareRe   = regexp.MustCompile(`\b(\d[\d.,]*) ?(k|m|mm|mn|b|bn|million|billion)\b`)
	// moneyNotDealRe marks an amount that is not the size of a round or a deal: a valuation, revenue, a
	// customer contract or a count of users.
	moneyNotDealRe = regexp.MustCompile(`^\s*(?:\+\s*)?(?:(?:post|pre)-money )?(?:in )?(?:annual |annualized |recurring |total )?(?:valuation|revenue|revenues|arr|sales|users|customers|downloads|members|people|devices|subscribers|visitors|installs|employees|contract|order|tender|loss|losses|market)\b`)
	moneyValuedRe  = regexp.MustCompile(`(?:valued at|valuation of|valuing it at|worth)\s*$`)
)

// moneySpan is an amount found in text, with its position.
type moneySpan struct {
	start, end int
	money      Money
}

// findMoney returns every amount in lowercased text, in order of appearance. bare also accepts numbers that
// carry a unit but no currency ("1.2b"), read as US dollars.
func findMoney(s string, bare bool) []moneySpan {
	var spans []moneySpan
	add := func(start, end int, num, unit, cur string) {
		for _, sp := range spans {
			if start < sp.end && end > sp.start {
				return
			}
		}
		amount, ok := parseAmount(num, unit)
		if !ok {
			return
		}
		spans = append(spans, moneySpan{start: start, end: end, money: newMoney(amount, currencyOf(cur))})
	}
	for _, m := range moneyPrefixRe.FindAllStringSubmatchIndex(s, -1) {
		add(m[0], m[1], s[m[4]:m[5]], sub(s, m, 3), s[m[2]:m[3]])
	}
	for _, m := range moneySuffixRe.FindAllStringSubmatchIndex(s, -1) {
		add(m[0], m[1], s[m[2]:m[3]], sub(s, m, 2), s[m[6]:m[7]])
	}
	if bare {
		for _, m := range moneyBareRe.FindAllStringSubmatchIndex(s, -1) {
			add(m[0], m[1], s[m[2]:m[3]], s[m[4]:m[5]], "")
		}
	}
	for i := 1; i < len(spans); i++ {
		for j := i; j > 0 && spans[j].start < spans[j-1].start; j-- {
			spans[j], spans[j-1] = spans[j-1], spans[j]
		}
	}
	return spans
}

// sub returns submatch n of a FindAllStringSubmatchIndex match, or "" when it did not take part.
func sub(s string, m []int, n int) string {
	if m[2*n] < 0 {
		return ""
	}
	return s[m[2*n]:m[2*n+1]]
}

// dealMoney picks the amount that sizes a round or a deal: the first one that is not a valuation, revenue or a
// count, and at least $10k.
func dealMoney(s string) *Money {
	for _, sp := range findMoney(s, true) {
		if sp.money.USD < 10_000 {
			continue
		}
		if moneyNotDealRe.MatchString(s[sp.end:]) || moneyValuedRe.MatchString(s[:sp.start]) {
			continue
		}
		m := sp.money
		return &m
	}
	return nil
}

func currencyOf(cur string) string {
	switch strings.TrimSpace(cur) {
	case "€", "eur", "euros":
		return "EUR"
	case "£", "gbp", "pounds":
		return "GBP"
	}
	return "USD"
}

func newMoney(amount float64, currency string) Money {
	usd := amount
	switch currency {
	case "EUR":
		usd = amount * usdPerEUR
	case "GBP":
		usd = amount * usdPerGBP
	}
	return Money{Amount: amount, Currency: currency, USD: math.Round(usd)}
}

// parseAmount reads a number written with either "," or "." as thousands separator or decimal mark, times
// its unit.
func parseAmount(num, unit string) (float64, bool) {
	num = strings.TrimRight(num, ".,")
	if num == "" {
		return 0, false
	}
	hasComma, hasDot := strings.Contains(num, ","), strings.Contains(num, ".")
	switch {
	case hasComma && hasDot:
		if strings.LastIndex(num, ",") > strings.LastIndex(num, ".") {
			num = strings.ReplaceAll(num, ".", "")
			num = strings.ReplaceAll(num, ",", ".")
		} else {
			num = strings.ReplaceAll(num, ",", "")
		}
	case hasComma:
		num = separatorOrDecimal(num, ",")
	case hasDot:
		num = separatorOrDecimal(num, ".")
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, false
	}
	switch unit {
	case "k", "thousand":
		v *= 1e3
	case "m", "mm", "mn", "million":
		v *= 1e6
	case "b", "bn", "billion":
		v *= 1e9
	}
	return v, true
}

// separatorOrDecimal treats sep as a thousands separator when every group after it has three digits
// ("1,200,000"), and as a decimal mark otherwise ("3,5").
func separatorOrDecimal(num, sep string) string {
	parts := strings.Split(num, sep)
	thousands := len(parts) > 2 || len(parts[len(parts)-1]) == 3
	for _, p := range parts[1:] {
		if len(p) != 3 {
			thousands = false
		}
	}
	if thousands {
		return strings.Join(parts, "")
	}
	if len(parts) > 2 {
		return strings.Join(parts[:len(parts)-1], "") + "." + parts[len(parts)-1]
	}
	return parts[0] + "." + parts[1]
}

// formatUSD renders a dollar amount compactly: $12.0M, $1.2B, $800K.
func formatUSD(v float64) string {
	return formatAmount(v, "$")
}

func formatAmount(v float64, symbol string) string {
	switch {
	case v >= 1e9:
		return fmt.Sprintf("%s%.1fB", symbol, v/1e9)
	case v >= 1e6:
		return fmt.Sprintf("%s%.1fM", symbol, v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%s%.0fK", symbol, v/1e3)
	}
	return fmt.Sprintf("%s%.0f", symbol, v)
}

// String renders the amount as stated, with the dollar conversion for other currencies: "€3.5M (~$3.8M)".
func (m Money) String() string {
	if m.Currency == "USD" || m.Currency == "" {
		return m.stated()
	}
	return m.stated() + " (~" + formatUSD(m.USD) + ")"
}

// stated renders the amount in its own currency: "€3.5M".
func (m Money) stated() string {
	switch m.Currency {
	case "EUR":
		return formatAmount(m.Amount, "€")
	case "GBP":
		return formatAmount(m.Amount, "£")
	}
	return formatUSD(m.Amount)
}
