package analysis

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"radar"
)

// trigger is one phrase pattern that points to a signal type. Patterns run over normalised text in which the
// company is companyToken and every founder is founderToken.
type trigger struct {
	typ    string
	weight float64
	re     *regexp.Regexp
	tag    string                              // refines severity, see severityOf
	reject func(s string, start, end int) bool // true when this occurrence does not count
	lits   []string                            // every match starts with one of these; see prefilter
}

// Fragments shared by the patterns.
const (
	founderFrag = `(?:co-?founders?|cofounders?|founders?|founding (?:ceo|cto|team|partner))`
	titleFrag   = `(?:ceo|cto|cfo|coo|cmo|cpo|cro|cio|ciso|chro|chief [a-z]+(?: [a-z]+)? officer|chief executive|[a-z]+ chief|` +
		`vp|svp|evp|vice president|president|head of [a-z]+|general counsel|chair(?:man|woman|person)?|` +
		`board member|board of directors|managing director|general manager|country manager)`
	departFrag = `(?:steps? down|stepped down|stepping down|to step down|steps? back|stepped back|stepping back|` +
		`resign(?:s|ed|ing|ation)?|to resign|depart(?:s|ed|ing|ure)?|leav(?:es|ing)|left|to leave|quits?|quitting|` +
		`exits|exiting|to exit|is out|ousted|steps? away|stepped away|stepping away|walks? away|walked away|bows? out|bowed out|fired|dismissed|no longer|parts? ways|parted ways|moves? on|moving on|` +
		`retir(?:es|ed|ing|ement)|to retire|hands? over|handing over|transitions? (?:out|away)|says? goodbye|farewell)`
	startFrag = `(?:start(?:s|ed|ing)?|launch(?:es|ed|ing)?|found(?:s|ed|ing)?|co-?found(?:s|ed|ing)?|build(?:s|ing)?|` +
		`form(?:s|ed)?|set(?:s|ting)? up|spin(?:s|ning)? (?:out|off)|spun (?:out|off)|unveil(?:s|ed)?|emerg(?:es|ed) from)`
	ventureFrag = `(?:company|startup|start-up|venture|firm|business|fund|studio|lab)`
	placeFrag   = `(?:us|u\.s\.|usa|united states|uk|u\.k\.|united kingdom|britain|eu|europe|asia|africa|latin america|south america|north america|middle east|gulf|apac|emea|nordics|benelux|dach|germany|france|spain|italy|portugal|netherlands|belgium|ireland|poland|sweden|norway|denmark|finland|switzerland|austria|czechia|romania|greece|turkey|india|china|japan|korea|singapore|indonesia|vietnam|thailand|malaysia|philippines|australia|new zealand|canada|mexico|brazil|argentina|chile|colombia|peru|nigeria|kenya|ghana|egypt|morocco|south africa|uganda|tanzania|rwanda|ethiopia|saudi arabia|uae|dubai|qatar|israel|texas|california|new york|london|paris|berlin|madrid|milan|amsterdam|dublin|lisbon|stockholm|oslo|copenhagen|helsinki|warsaw|prague|vienna|zurich|munich|tokyo|seoul|sydney|melbourne|toronto|vancouver|boston|chicago|austin|miami|lagos|nairobi|cairo|mumbai|bangalore|bengaluru|delhi|shanghai|hong kong|sao paulo|são paulo|bogota|bogotá|lima|santiago|mexico city)`
)

// triggers is the fixed table of patterns; it is built once and never modified.
var triggers = buildTriggers()

func buildTriggers() []trigger {
	expand := strings.NewReplacer(
		"MONEY", moneyFrag, "AMOUNT", amountFrag, "FOUNDER", founderFrag, "TITLE", titleFrag,
		"DEPART", departFrag, "START", startFrag, "VENTURE", ventureFrag, "CO", companyToken, "PLACE", placeFrag,
	)
	var ts []trigger
	add := func(typ string, weight float64, tag, pattern string, reject func(string, int, int) bool) {
		full := boundary(pattern) + `(?:` + expand.Replace(pattern) + `)`
		ts = append(ts, trigger{
			typ: typ, weight: weight, tag: tag, reject: reject,
			re: regexp.MustCompile(full), lits: prefilter(full),
		})
	}

	notDealMoney := func(s string, start, end int) bool {
		if moneyNotDealRe.MatchString(s[end:]) {
			return true
		}
		// "raises the bar: $1 billion processed"
		if i := strings.IndexByte(s[start:end], ' '); i >= 0 && raiseOtherRe.MatchString(s[start+i:end]) {
			return true
		}
		// "lands a $3M defence contract", "wins a £1m prize": a deal's value or a prize, not a round (a grant is
		// money raised, so it is one).
		next := strings.Fields(s[end:min(len(s), end+40)])
		next = next[:min(3, len(next))]
		for _, w := range next {
			w = strings.Trim(w, ".,;:()'\"")
			if roundWords[w] {
				return false
			}
			if notRoundWords[w] {
				return true
			}
		}
		return false
	}
	// Funding.
	add(radar.TypeFunding, 0.95, "", `(?:rais(?:es|ed|ing|e)|secur(?:es|ed|ing|e)|clos(?:es|ed|ing|e)|land(?:s|ed|ing)?|bag(?:s|ged|ging)?|nab(?:s|bed)?|snag(?:s|ged)?|pull(?:s|ed)? in|rak(?:es|ed|e) in|pick(?:s|ed)? up|scoops?|scooped|nets|netted|scor(?:es|ed)|grab(?:s|bed)) (?:\S+ ){0,4}?AMOUNT`, notDealMoney)
	add(radar.TypeFunding, 0.9, "", `(?:net|score|collect(?:s|ed)?|attract(?:s|ed)?|receiv(?:es|ed|e)|gets?|got|grab|announc(?:es|ed|e)|confirm(?:s|ed)?|reveal(?:s|ed)?|tops? up|topped up|extends?|extended|complet(?:es|ed|e)) (?:\S+ ){0,4}?MONEY (?:\S+ ){0,3}?(?:round|funding|financing|investment|seed|series|raise|backing|capital)`, nil)
	add(radar.TypeFunding, 0.93, "", `(?:pre-?seed|seed|series [a-h]\d?|angel|bridge|growth|venture|funding|financing|investment|extension|mezzanine|crowdfunding|equity|convertible|safe|debt) (?:round|funding|financing|raise|investment|note)`, nil)
	add(radar.TypeFunding, 0.92, "", `(?:round|funding|financing|investment|raise) (?:was |is )?(?:led|co-led) by`, nil)
	add(radar.TypeFunding, 0.9, "", `(?:rais(?:es|ed|ing|e)|secur(?:es|ed|ing|e)|clos(?:es|ed|ing|e)|land(?:s|ed)?|bag(?:s|ged)?|announc(?:es|ed|e)|complet(?:es|ed|e)|receiv(?:es|ed|e)|gets?|got|attract(?:s|ed)?|win(?:s)?|won) (?:\S+ ){0,4}?(?:new |fresh |additional |more )?(?:funding|financing|investment|capital|seed|pre-?seed|series [a-h]|round|backing|cash injection)\b`, nil)
	add(radar.TypeFunding, 0.9, "", `invest(?:s|ed|ing)? (?:\S+ ){0,3}?MONEY (?:\S+ ){0,2}?in`, nil)
	add(radar.TypeFunding, 0.9, "", `MONEY (?:\S+ ){0,2}?(?:round|raise|funding|financing|investment|seed|series [a-h])\b`, nil)
	add(radar.TypeFunding, 0.85, "", `(?:investment from|with participation from|participation from|new investors|existing investors|from investors|led the round|co-led the round|invests? in CO|invested in CO)`, nil)
	// A grant or subsidy the company receives is money raised too (a prize is recognition).
	add(radar.TypeFunding, 0.88, "grant", `(?:award(?:s|ed)?|receiv(?:es|ed|e|ing)|win(?:s|ning)?|won|secur(?:es|ed|e|ing)|land(?:s|ed)?|gets?|got|bag(?:s|ged)?|scoop(?:s|ed)?|obtain(?:s|ed)?|nab(?:s|bed)?) (?:\S+ ){0,6}?(?:grants?|subsid(?:y|ies)|sbir|innovate uk funding|horizon europe funding|eic accelerator funding)\b`, nil)
	add(radar.TypeFunding, 0.86, "grant", `MONEY (?:\S+ ){0,4}?(?:grants?|subsid(?:y|ies))\b`, nil)
	add(radar.TypeFunding, 0.85, "", `series [a-h]\b`, nil)
	add(radar.TypeFunding, 0.8, "", `(?:pre-?seed|seed funding|seed money|seed capital)\b`, nil)
	add(radar.TypeFunding, 0.58, "", `(?:fundrais(?:e|es|ed|ing)|funding|financing)\b`, nil)
	add(radar.TypeFunding, 0.72, "", `(?:valued at|valuation of|unicorn status|becomes a unicorn)`, nil)
	add(radar.TypeFunding, 0.6, "", `(?:backed by|led by)`, nil)
	add(radar.TypeFunding, 0.55, "", `(?:rais(?:e|es|ed|ing)|to raise)\b`, func(s string, _, end int) bool {
		return raiseOtherRe.MatchString(s[end:])
	})

	// Acquisition. "target" means the company itself changes hands.
	add(radar.TypeAcquisition, 0.95, "target", `(?:acquired by|to be acquired|agreed to be acquired|agrees to be acquired|been acquired|being acquired|was acquired|is acquired|bought by|to be bought|been bought|sold to|sells? (?:itself|the company|the business|CO) to|selling (?:itself|the company|the business) to|snapped up by|taken over by|acquisition of CO|takeover of CO|acquire CO|acquires CO|buys CO|buy CO|bid for CO|offer for CO)`, nil)
	add(radar.TypeAcquisition, 0.88, "target", `(?:found (?:the right|a|our|its) (?:new )?home|(?:becomes?|became|is now|are now|will become) (?:a )?part of|(?:is|are) joining (?:forces with )?(?:\S+ ){0,2}?family)`, nil)
	add(radar.TypeAcquisition, 0.88, "buyer", `(?:absorb(?:s|ed)|(?:deal|agreement|offer) to (?:buy|acquire|purchase)|acquisition (?:of|by))\b`, nil)
	add(radar.TypeAcquisition, 0.93, "merger", `(?:merg(?:es|ed|ing|e) with|merger with|merger of|to merge|merger between|combine with|combination with)`, nil)
	add(radar.TypeAcquisition, 0.92, "exit", `(?:ipo|initial public offering|go(?:es|ing)? public|went public|files? (?:confidentially )?(?:for|to) (?:an )?(?:ipo|go public)|(?:lists?|listed|listing|floats?|floated|floating|debuts?|debuted|(?:made|makes|making) its debut|begins? trading|began trading|starts? trading) (?:its shares )?on (?:the )?(?:\S+ ){0,2}?(?:nasdaq|nyse|lse|asx|tsx|tsxv|euronext|nasdaq nordic|sgx|hkex|jse|aim|stock exchange|securities exchange|stock market|main market|bourse|börse)|(?:stock market|market|trading|public market) debut|direct listing|spac merger|successful exit)`, nil)
	add(radar.TypeAcquisition, 0.92, "buyer", `(?:acquir(?:es|ed|ing)|to acquire|agrees? to (?:buy|acquire|purchase)|buy(?:s|ing)|bought|snap(?:s|ped)? up|tak(?:es|en) over|completes? (?:the |its )?(?:acquisition|purchase))`, func(s string, _, end int) bool {
		return buyOtherRe.MatchString(s[end:])
	})
	add(radar.TypeAcquisition, 0.85, "buyer", `(?:acquisition|acquisitions|acquihire|acqui-hire|buyout|takeover|m&a)\b`, nil)
	add(radar.TypeAcquisition, 0.9, "target", `(?:tak(?:es|e|ing) CO private|tak(?:es|e|ing) (?:it|the company) private|taken private|take-private)`, nil)
	add(radar.TypeAcquisition, 0.85, "target", `sell(?:s|ing)? (?:\S+ ){0,2}?to (?:a |an |the )?(?:competitor|rival|buyer|bigger|larger|strategic|private equity|pe firm|tech giant)`, nil)
	add(radar.TypeAcquisition, 0.8, "target", `(?:for sale|sale process|explor(?:es|ing|e) (?:a |an )?(?:possible |potential )?sale|seeks? (?:a )?buyer|put (?:itself )?up for sale|strategic alternatives|sale of CO)`, nil)

	// Founders: departures and new ventures.
	leftOther := func(s string, _, end int) bool {
		m := nextWordRe.FindStringSubmatch(s[end:])
		if m == nil {
			return false
		}
		if ownBusinessRe.MatchString(s[end:]) {
			return false
		}
		switch strings.TrimSuffix(strings.TrimRight(m[1], ".'"), "'s") {
		case companyToken, "the", "to", "her", "his", "their", "its", "as", "after", "for", "on", "in", "at",
			"company", "board", "role", "position", "post", "following", "with", "amid", "today", "this",
			"last", "effective", "from", "immediately", "end", "by", "and", "but", "he", "she", "they", "over",
			"behind", "day-to-day", "operational", "management", "leadership", "executive", "a", "an":
			return false
		}
		return true
	}
	departCheck := func(s string, start, end int) bool {
		seg := s[start:end]
		if strings.HasSuffix(seg, "dismissed") && dismissClaimRe.MatchString(s[end:]) {
			return true
		}
		if transitiveLeaveRe.MatchString(seg) {
			return leftOther(s, start, end)
		}
		return false
	}
	add(radar.TypeFounderDeparture, 0.92, "", `FOUNDER(?: \S+){0,6}? DEPART\b`, departCheck)
	add(radar.TypeFounderDeparture, 0.92, "", `(?:departure|exit|resignation|ouster|retirement|leaving|stepping down) of (?:\S+ ){0,3}?FOUNDER`, nil)
	add(radar.TypeFounderDeparture, 0.8, "author", `i(?:'ve| have| am|'m| will)? (?:\S+ ){0,3}?DEPART\b`, departCheck)
	add(radar.TypeFounderDeparture, 0.9, "", `FOUNDER (?:transition|succession)`, nil)
	add(radar.TypeFounderDeparture, 0.9, "author", `(?:my|her|his) last day (?:at|with|as)\b`, nil)
	add(radar.TypeFounderDeparture, 0.9, "", `DEPART (?:as|from (?:the )?(?:role|position|post) (?:of|as)) (?:\S+ ){0,3}?FOUNDER`, nil)
	notOwnStory := func(s string, _, end int) bool {
		rest := s[end:]
		if len(rest) > 60 {
			rest = rest[:60]
		}
		return strings.Contains(rest, companyToken)
	}
	add(radar.TypeNewVenture, 0.93, "", `(?:FOUNDER|former|ex-|ex |alum|alumni|veteran)(?: [^.;]*?)? START (?:\S+ ){0,4}?VENTURE`, notOwnStory)
	add(radar.TypeNewVenture, 0.93, "", `(?:FOUNDER|former|ex-|ex |alum|alumni|veteran)(?: [^.;]*?)? (?:new|next|own|stealth) (?:\S+ ){0,2}?VENTURE`, notOwnStory)
	add(radar.TypeNewVenture, 0.9, "", `(?:FOUNDER|former|ex-|ex |alumn\w*|veteran)[^.;]*?(?:stealth|new (?:\S+ ){0,2}?VENTURE)`, notOwnStory)
	add(radar.TypeNewVenture, 0.85, "", `(?:stealth startup|stealth-mode|stealth mode|new venture|new startup|new start-up|next venture)`, notOwnStory)
	notOwnThing := func(s string, _, end int) bool {
		return ownThingRe.MatchString(s[end:])
	}
	add(radar.TypeNewVenture, 0.97, "", `(?:ex-|ex |former |alumn\w* of |veteran of )(?:\S+ ){0,1}?CO(?:'s)?(?: [^.;]*?)? (?:START|rais(?:es|ed|ing)|returns? with|is back with|debuts?|co-?founds?|co-?founded|back(?:s|ed)? (?:her|his|their) own)\b`, notOwnThing)
	add(radar.TypeNewVenture, 0.97, "", `(?:CO(?:'s)? |former |ex-)(?:co-?)?FOUNDER(?: \S+){0,3}? (?:START|returns? with|is back with|unveils?|debuts?|rais(?:es|ed) \S+ for)\b`, notOwnThing)
	add(radar.TypeNewVenture, 0.9, "", `(?:spin(?:s|ning)? (?:out|off)|spun (?:out|off))\b`, nil)
	add(radar.TypeNewVenture, 0.93, "author", `i (?:\S+ ){0,2}?(?:left|am leaving|'m leaving|stepped away from|stepped down at) CO\b[^.]{0,80}?\b(?:i'm|i am|i've|i have|we're|we are|we've) (?:\S+ ){0,2}?(?:launching|starting|building|founding|co-founding|founded|co-founded|started|launched)\b`, nil)
	add(radar.TypeNewVenture, 0.88, "", `(?:emerg(?:es|ed|ing) from stealth|out of stealth|(?:his|her|their) (?:new|latest|next|second|third) (?:company|startup|start-up|venture|business))\b`, notOwnStory)
	add(radar.TypeNewVenture, 0.86, "", `(?:(?:former|ex-|ex) ?(?:\S+ ){0,2}?CO(?:'s)? (?:\S+ ){0,2}?(?:TITLE|FOUNDER)|CO(?:'s)? (?:former|ex-) ?(?:\S+ ){0,2}?(?:TITLE|FOUNDER))\b`, notOwnThing)
	add(radar.TypeNewVenture, 0.96, "", `(?:CO(?:'s)? (?:former|ex-) ?(?:\S+ ){0,3}?(?:START|rais(?:es|ed)|returns? with|co-?founds?|co-?founded|debuts?)\b|(?:from|by) (?:former |ex-)?CO (?:alumni|alums|veterans|engineers|founders|executives)|post-CO\b)`, notOwnThing)
	add(radar.TypeNewVenture, 0.95, "", `(?:after|following) (?:\S+ ){0,4}?as (?:a |an |the |our )?(?:\S+ )?(?:TITLE|FOUNDER)(?: \S+){0,2}? (?:at|of|with) CO\b[^.;]{0,40}?\b(?:i'm|i am|i've|i have|we've|we have|i) (?:\S+ ){0,2}?(?:co-?found\w*|found(?:ed|ing)|start(?:ed|ing)|launch(?:ed|ing)|build(?:ing)?)\b`, nil)
	add(radar.TypeNewVenture, 0.9, "", `(?:(?:i'm|i am|we're|we are) (?:starting|building|launching) (?:something new|again)|new co\b|(?:my|our) (?:new|next) (?:company|startup|start-up|venture|thing))`, nil)

	// Executives.
	add(radar.TypeExecutiveChange, 0.85, "", `(?:appoint(?:s|ed|ing)?|name[sd]?|naming|hire[sd]?|hiring|recruit(?:s|ed)?|welcome[sd]?|promote[sd]?|tap(?:s|ped)?|elevat(?:es|ed)|brings? on|brought on|add(?:s|ed)|join(?:s|ed)?|poach(?:es|ed)?|select(?:s|ed)|pick(?:s|ed)|announc(?:es|ed) (?:\S+ ){0,2}?new) (?:\S+ ){0,8}?(?:as |its |new |a |the |interim |acting )*TITLE\b`, func(s string, start, _ int) bool {
		return namedToListRe.MatchString(s[start:])
	})
	add(radar.TypeExecutiveChange, 0.85, "", `TITLE(?: \S+){0,6}? DEPART\b`, departCheck)
	add(radar.TypeExecutiveChange, 0.85, "", `DEPART (?:as|from (?:the )?(?:role|position|post) (?:of|as)) (?:\S+ ){0,3}?TITLE`, nil)
	add(radar.TypeExecutiveChange, 0.85, "", `(?:new|interim|acting|incoming|outgoing|departing) TITLE\b`, nil)
	add(radar.TypeExecutiveChange, 0.84, "", `(?:(?:ceo|leadership|management|executive) succession|succession plan)`, nil)
	add(radar.TypeExecutiveChange, 0.8, "", `(?:leadership (?:change|transition|shake-?up)|management (?:change|shake-?up|reshuffle)|executive (?:shake-?up|reshuffle|hire|appointment)|c-suite|joins the board|board of directors|succeeds|successor)`, nil)

	// Team size.
	add(radar.TypeTeamGrowth, 0.88, "big", `(?:doubl(?:es|ed|ing)|tripl(?:es|ed|ing)|quadrupl(?:es|ed|ing)) (?:its |the |our |their )?(?:\S+ )?(?:headcount|team|workforce|staff|employees)`, nil)
	add(radar.TypeTeamGrowth, 0.88, "count", `(?:hir(?:es|ed|ing|e)|add(?:s|ed|ing)?|recruit(?:s|ed|ing)?|creat(?:es|ed|ing|e)|open(?:s|ed|ing)?|plans? to hire|to hire|bring(?:s|ing)? on) (?:\S+ ){0,3}?\d[\d,]* (?:\S+ ){0,2}?(?:jobs|roles|positions|employees|staff|people|engineers|developers|hires|vacancies|openings|workers|salespeople|researchers|scientists|designers)`, nil)
	add(radar.TypeTeamGrowth, 0.86, "count", `(?:hire|hires|hiring|recruit(?:s|ing)?|to add|adding) (?:up to |about |around |more than |over |another |an additional )?\d[\d,]* (?:new )?[a-z]+`, nil)
	add(radar.TypeTeamGrowth, 0.8, "", `(?:new faces|welcom(?:es|ed|ing) (?:\d+|our new|\S+ new) (?:\S+ ){0,2}?(?:hires|colleagues|team members|joiners|people|starters))`, nil)
	add(radar.TypeTeamGrowth, 0.85, "", `(?:grow(?:s|ing)?|grew|expand(?:s|ed|ing)?|scal(?:es|ed|ing)(?: up)?|boost(?:s|ed)?|increas(?:es|ed|ing)|build(?:s|ing)? out) (?:its |the |our |their )?(?:\S+ )?(?:headcount|team|teams|workforce|staff)\b`, nil)
	add(radar.TypeTeamGrowth, 0.85, "", `(?:(?:team|headcount|workforce|staff) (?:\S+ ){0,2}?(?:grown|grew|grows|doubled|increased|expanded) to \d|(?:grown|grew) to \d[\d,]* (?:people|employees|staff|team members))`, nil)
	add(radar.TypeTeamGrowth, 0.78, "", `(?:is hiring|are hiring|we're hiring|we are hiring|now hiring|hiring spree|hiring push|hiring drive|recruiting drive|plans to hire|hiring across)`, nil)
	add(radar.TypeTeamGrowth, 0.66, "", `(?:open roles|open positions|job openings|join our team|join the team|careers at|jobs at|new hires|we're looking for|we are looking for|now recruiting|apply now)`, nil)
	add(radar.TypeTeamGrowth, 0.55, "", `headcount`, nil)

	// Contraction.
	add(radar.TypeContraction, 0.95, "shutdown", `CO (?:is |will |has )?(?:shut(?:s|ting)? down|to shut down|winds? down|is winding down|closes its doors|ceases operations|goes bust|collapses)`, nil)
	add(radar.TypeContraction, 0.93, "shutdown", `(?:ceas(?:es|ed|ing|e) (?:operations|trading)|bankrupt\w*|insolven\w+|files? for (?:bankruptcy|insolvency|chapter 11)|chapter 11|liquidat\w+|(?:enters|entered|goes into|went into|placed into|placed in) administration|wind(?:s|ing)? down (?:operations|the company|the business)|wound down|shut(?:s|ting)? down (?:operations|for good|the company|the business)|shutting down$|shuts down$|to shut down$|is closing its doors|closes its doors|closed its doors)`, nil)
	add(radar.TypeContraction, 0.92, "", `(?:lay(?:s|ing)? off|laid off|layoffs?|lay-offs?|redundanc(?:y|ies)|job cuts|job losses|cuts? jobs|cutting jobs|hiring freeze|furlough\w*|let(?:s|ting)? go (?:of )?(?:\S+ ){0,2}?\d+)`, nil)
	add(radar.TypeContraction, 0.9, "", `(?:cut(?:s|ting)?|slash(?:es|ed|ing)?|reduc(?:es|ed|ing|e)|trim(?:s|med|ming)?|shed(?:s|ding)?|eliminat(?:es|ed|ing)) (?:\S+ ){0,3}?(?:\d+ ?(?:%|percent|per cent) (?:of (?:its |the |their |our )?)?(?:global |total )?(?:workforce|staff|headcount|jobs|roles|employees|team|positions|people|workers)|\d[\d,]* (?:\S+ )?(?:jobs|roles|positions|employees|staff|people|workers)|(?:its |the |their )?(?:workforce|staff|headcount|jobs|team|employees))`, nil)
	add(radar.TypeContraction, 0.88, "office", `(?:clos(?:es|ed|ing|e|ure of)|shut(?:s|ting)? down|shutter(?:s|ed|ing)?) (?:its |the |our |their |a )?(?:\S+ ){0,2}?(?:office|offices|hq|headquarters|site|plant|hub|studio|stores?|factory|facility|operations in|branch|location|depot|warehouse|clinic|lab)`, nil)
	add(radar.TypeContraction, 0.82, "", `(?:consolidat(?:es|ed|ing) (?:its |the )?(?:offices|operations|sites|teams)|withdraw(?:s|ing)? from (?:the )?(?:\S+ ){0,2}?market|exit(?:s|ing)? (?:the )?(?:\S+ ){0,2}?market|sunset(?:s|ting)? (?:its |the )?)`, nil)
	add(radar.TypeContraction, 0.85, "", `(?:(?:paus|suspend|halt)(?:s|es|ed|ing)? (?:\S+ ){0,2}?(?:operations|service|services|production|deliveries|trading)|shrink(?:s|ing)? (?:its |the )?(?:team|workforce|staff)|(?:redundancy|layoff|lay-off) (?:round|programme|plan)|(?:let|lets|letting) (?:\S+ ){0,2}?(?:people|staff|employees|colleagues) go)`, nil)
	add(radar.TypeContraction, 0.8, "", `(?:downsiz\w+|restructur\w+|shut(?:s|ting)? down|shutters|shuttered|winds? down|wind-down|scal(?:es|ed|ing) back|pulls? out of|exits? the \S+ market|retrench\w*)`, nil)

	// Products.
	add(radar.TypeProductLaunch, 0.82, "", `(?:launch(?:es|ed|ing)?|unveil(?:s|ed|ing)?|introduc(?:es|ed|ing|e)|debut(?:s|ed|ing)?|roll(?:s|ed|ing)? out|rolls-out|announc(?:es|ed|e) (?:the )?(?:launch|release|availability|general availability)|releas(?:es|ed|ing|e))\b`, func(s string, _, end int) bool {
		return releaseOtherRe.MatchString(s[end:])
	})
	add(radar.TypeProductLaunch, 0.75, "", `(?:ship(?:s|ped|ping)? (?:a |its |the |new )|now available|generally available|general availability|available today|is live|goes live|public beta|private beta|open beta|in beta|beta|early access|public preview|new feature|new features|product update|new version|version \d|v\d+(?:\.\d+)+)\b`, nil)
	add(radar.TypeProductLaunch, 0.7, "", `(?:the launch of|product launch|new product|new app|new platform|new tool)`, nil)
	add(radar.TypeProductLaunch, 0.8, "", `(?:adds? (?:\S+ ){0,3}?(?:support for|feature|features|mode)|(?:is|are) now (?:available|live|in beta|generally available|on sale)|(?:goes|went|now) on sale|available to (?:order|pre-?order|buy)|new (?:model|device|version|release|edition|plan|tier|range|line)\b|announc(?:es|ed) (?:\S+ ){0,3}?(?:product|platform|app|tool|service|feature|device)\b)`, nil)
	add(radar.TypeProductLaunch, 0.68, "", `(?:changelog|release notes|what's new|new in \S+|now supports?|now you can|you can now|^\S+ v?\d+\.\d+(?:\.\d+)?$)`, nil)
	add(radar.TypeProductLaunch, 0.8, "", `(?:^it's here|^shipped:|^new:|pre-?orders? (?:are )?(?:now )?open|out now|available now|now shipping|(?:just|we|we've) shipped|say hello to|meet the new)\b`, nil)

	// Partnerships.
	add(radar.TypePartnership, 0.85, "", `(?:partner(?:s|ed|ing)? with|partnership|teams? up|teamed up|teaming up|joins? forces|joined forces|joining forces|strategic alliance|alliance with|collaborat(?:es|ed|ion|ing) with|co-develop\w*|joint venture|teams with)`, nil)
	add(radar.TypePartnership, 0.82, "", `(?:signs?|signed|inks?|inked|strikes?|struck|seals?|sealed|agrees?|agreed) (?:a |an )?(?:\S+ ){0,3}?(?:deal|agreement|contract|mou|memorandum|pact|partnership)`, nil)
	add(radar.TypePartnership, 0.82, "", `(?:wins?|won|lands?|landed|secures?|secured|awarded|bags?|bagged) (?:a |an )?(?:\S+ ){0,4}?(?:contract|deal|tender|framework agreement)`, nil)
	add(radar.TypePartnership, 0.82, "", `(?:wins?|won|lands?|landed|secures?|secured|awarded|bags?|bagged|receiv(?:es|ed)) (?:a |an |its |their )?(?:\S+ ){0,4}?(?:orders?|offtake (?:deal|agreement))\b`, func(s string, start, end int) bool {
		return strings.HasSuffix(s[start:end], " in order") || strings.HasSuffix(s[start:end], " to order")
	})
	add(radar.TypePartnership, 0.8, "", `(?:white-?label(?:s|ed|ing)?|bundl(?:es|ed|ing|e) (?:\S+ ){0,5}?with|resell(?:s|ing)?|(?:official|preferred|exclusive|launch|technology|distribution) partner)\b`, nil)
	add(radar.TypePartnership, 0.82, "", `(?:new partners?\b|partners?:|(?:is|are|becomes?|became) (?:now )?(?:the |a |an |their |its )?(?:\S+ ){0,2}?(?:provider|supplier|partner|vendor|reseller|distributor) (?:for|to|of)\b|(?:as a|as its|as their|new|newest|first|largest|biggest|anchor|flagship) (?:\S+ )?customer\b|sign(?:s|ed|ing)? (?:\S+ ){1,4}?as (?:a |its |their )?(?:customer|client|partner)|rolling out (?:\S+ ){0,4}?across|(?:now )?live (?:inside|in every|across)|nearing (?:a )?deal|close to signing|(?:talks|negotiations) (?:\S+ ){0,3}?(?:deal|contract|agreement|partnership|supply)|to supply (?:\S+ ){0,4}?to|\S+ × \S+)`, nil)
	investsInOther := func(s string, _, end int) bool {
		return strings.HasPrefix(s[end:], " "+companyToken)
	}
	add(radar.TypePartnership, 0.9, "investor", `(?:CO(?:'s)? (?:\S+ ){0,2}?(?:invests?|invested|investing|(?:takes?|took|taken|taking) (?:a |an )?(?:\S+ )?stake|backs|backed|co-leads?|co-led|participat(?:es|ed) in) (?:\S+ ){0,5}?in|(?:makes?|made|its) (?:its |a |their )?(?:first |new |strategic |minority )?(?:investment|stake) in|(?:we|we've|we have) (?:put|invested) (?:\S+ ){0,3}?into)`, investsInOther)
	// "Acme and Globex partner on payouts", "partnered up".
	add(radar.TypePartnership, 0.84, "", `(?:partner(?:s|ed|ing)? up|(?:and|&) \S+(?: \S+){0,2}? partner(?:s|ed)? (?:on|to|for|in)\b)`, nil)
	// Posts that name the partner by its handle ("publishing the game with @studio", "now runs on @cloud"),
	// and another business selling, stocking or deploying the company's product.
	add(radar.TypePartnership, 0.8, "", `(?:(?:publish|work|partner|build|launch|team|collaborat|ship|bring|creat|develop|co-\S+)\S* (?:\S+ ){0,8}?with @\S+|(?:now )?(?:run|runs|running) on @\S+|(?:powered|backed|hosted) by @\S+|built on @\S+|hosted on @\S+)`, nil)
	add(radar.TypePartnership, 0.78, "", `(?:sell|offer|stock|carry|distribut|resell|bundl|white-label|deploy|install|pilot)(?:s|es|ing|ed|e)? CO's`, nil)
	// An integration with another company's product is a partnership, also when a changelog announces it.
	add(radar.TypePartnership, 0.8, "", `(?:integrat(?:es|ed|ion|ing) with|(?:native|official|new|two-way|deep|direct) (?:\S+ ){0,2}?integration|integration (?:for|between))\b`, nil)
	add(radar.TypePartnership, 0.75, "", `(?:integrat(?:es|ed|ion|ing) with|new integration|integration for|selected by|chosen by|deploy(?:s|ed)? (?:\S+ ){0,2}?(?:across|at)|reseller|distribution agreement|customer win)`, nil)

	// Geography.
	add(radar.TypeExpansion, 0.84, "", `(?:expand(?:s|ed|ing)?|expansion) (?:\S+ ){0,2}?(?:to|into|in|across|throughout)\b`, func(s string, _, end int) bool {
		return expandsTeamRe.MatchString(s[end:])
	})
	add(radar.TypeExpansion, 0.86, "", `open(?:s|ed|ing)? (?:a |an |its |their |our |new |first |second |third |european |us |uk |\S+ ){0,3}?(?:office|offices|hq|headquarters|hub|branch|campus|site|store|data ?cent(?:er|re)|r&d cent(?:er|re)|factory|facility)\b`, nil)
	add(radar.TypeExpansion, 0.84, "", `(?:rolls? out|rolled out|roll-out|goes live|went live|arriv(?:es|ed)|opens? (?:its |an? |new )?(?:\S+ )?(?:office|doors|hub)|expands?) (?:\S+ ){0,4}?(?:in|to|into|across) (?:the )?PLACE\b`, nil)
	add(radar.TypeExpansion, 0.84, "", `launch(?:es|ed|ing)? (?:in|across) `, func(s string, _, end int) bool {
		return launchInBetaRe.MatchString(s[end:])
	})
	add(radar.TypeExpansion, 0.85, "", `(?:set(?:s|ting)? up|establish(?:es|ed|ing)?|open(?:s|ed|ing)?|build(?:s|ing)?|launch(?:es|ed)?|incorporat(?:es|ed)|register(?:s|ed)) (?:\S+ ){0,4}?(?:subsidiary|hub|base|plant|factory|clinic|warehouse|depot|data region|entity|regional (?:office|headquarters|hq)|branch|outpost)s?\b`, nil)
	add(radar.TypeExpansion, 0.84, "", `(?:begins?|began|starts?|started|commenc(?:es|ed)) (?:\S+ ){0,2}?(?:operations|operating|trading|writing|selling|shipping|serving|deliveries) (?:\S+ ){0,3}?(?:in|at|across)\b`, nil)
	add(radar.TypeExpansion, 0.84, "", `(?:now (?:serves?|serving|runs?|operates?|operating|live|available|ships?|shipping|delivers?) (?:\S+ ){0,3}?in|(?:first|second|third|fourth|new|next) (?:\S+ ){0,2}?(?:factory|plant|clinic|store|warehouse|hub|depot|studio|lab|location|country|countries|market|markets|region|city|cities)\b)`, nil)
	add(radar.TypeExpansion, 0.84, "", `enter(?:s|ed|ing)? (?:\S+ ){1,2}?(?:through|via|with|after|as|by)\b`, func(s string, start, _ int) bool {
		return enterOtherRe.MatchString(s[start:])
	})
	add(radar.TypeExpansion, 0.84, "", `(?:(?:office|hub|site|store|clinic|lab|studio|branch|location|factory|plant)s? (?:opened|opens|is opening|will open|now open)\b|^opening (?:\S+ ){0,2}?(?:\d{4}|soon)|\bnew (?:office|location|clinic|site|store|studio)s?\b)`, nil)
	add(radar.TypeExpansion, 0.86, "", `(?:enter(?:s|ed|ing)? (?:the )?(?:\S+ ){0,2}?markets?|market entry|international expansion|global expansion|now operating in|now live in|arriv(?:es|ed) in|mov(?:es|ed|ing) (?:its )?(?:headquarters|hq) to|relocat(?:es|ed|ing) (?:its )?(?:headquarters|hq))`, nil)

	// Legal.
	add(radar.TypeLegal, 0.88, "serious", `MONEY fine\b`, nil)
	add(radar.TypeLegal, 0.88, "serious", `(?:fines CO|lawsuit|sues|sued|suing|fil(?:es|ed|ing|e) (?:a )?(?:suit|lawsuit|complaint|claim)|class action|charged with|indicted|fined|fines? (?:of|from|by|for)|penalt(?:y|ies)|investigation|investigat(?:es|ed|ing)|probe (?:into|by|of)|probes into|under probe|(?:opens?|launch(?:es|ed)?) (?:a |an )?(?:\S+ )?probe|(?:regulatory|antitrust|federal|criminal|sec|ftc|eu|doj) probe|prosecut\w+|subpoena\w*|antitrust|injunction|raided|criminal)`, nil)
	add(radar.TypeLegal, 0.88, "serious", `fraud`, func(s string, start, end int) bool {
		return fraudToolRe.MatchString(s[end:]) || strings.HasSuffix(s[:start], "anti-")
	})
	add(radar.TypeLegal, 0.86, "serious", `(?:opens? (?:\S+ ){0,2}?(?:proceedings|investigation|inquiry|probe|case) (?:against|into)|tribunal|warning letter|scrutiny|watchdog|competition (?:office|authority|commission)|enforcement action|class-action|accused of|allegations?)`, nil)
	add(radar.TypeLegal, 0.84, "", `(?:(?:settles?|settled|settling) (?:\S+ ){0,3}?(?:lawsuit|suit|case|claims?|dispute|charges|allegations|litigation|with)\b|settlement (?:with|over|in the|of the|of a|agreement with)\b|(?:legal|court|ftc|sec|regulatory|\$\S+) settlement|agrees? to (?:\S+ ){0,2}?settlement)`, nil)
	add(radar.TypeLegal, 0.86, "serious", `(?:ordered to (?:pay|stop|halt|cease)|verdict|fac(?:es|ed|ing|e) (?:a |an )?(?:\S+ ){0,2}?(?:lawsuit|suit|claims?|fines?|investigation|probe|charges|citations?|penalt(?:y|ies)|sanctions|inquiry|legal action|ban|recall)|banned from|ban on CO|arbitration|recall(?:s|ed)? (?:\S+ ){0,3}?(?:over|after|due))`, nil)
	add(radar.TypeLegal, 0.84, "", `(?:alleg(?:es|ed|ing|ation|ations)|sanction(?:s|ed)|trademark (?:dispute|claim|case|infringement)|copyright (?:claim|infringement|lawsuit|case)|licen[cs]e (?:revoked|suspended)|regulatory action|enforcement notice)\b`, nil)
	add(radar.TypeLegal, 0.82, "", `(?:litigation|court|ruling|regulator\w*|patent (?:dispute|infringement|suit|case)|infring\w+|data breach|cease and desist|complaint|gdpr|legal action|legal battle|judge)`, nil)

	// Further legal wording: regulators' citations and orders, pleas and convictions, recalls, settled probes,
	// court fights, competition and privacy cases, patent fights.
	add(radar.TypeLegal, 0.86, "serious", `(?:(?:pleads?|pleaded|pled) (?:not )?guilty|convicted|conviction for|penali[sz](?:es|ed|ing)|slapped with|hit with (?:a |an )?(?:\S+ ){0,2}?(?:lawsuit|suit|claim|fine|ban|penalty|complaint|charges)|cit(?:ed|es|ing) (?:\S+ ){0,6}?(?:violations?|breaches|hazards?|infractions?)|citations? (?:\S+ ){0,4}?(?:violations?|hazards?|safety|after|over|for)|(?:safety|health|environmental|privacy|consumer|labou?r|wage|sanctions|export|securities|competition) (?:law )?(?:violations?|breaches)|in (?:breach|violation) of|dawn raids?|price[- ]fixing|cartel|anti-?competitive|anti-trust|abuse of (?:a |its )?dominan\w+|consent (?:decree|order))\b`, nil)
	add(radar.TypeLegal, 0.84, "", `(?:(?:settles?|settled|settling|resolves?|resolved) (?:\S+ ){0,3}?(?:probe|investigation|inquiry|complaint|action|matter|charges|claims?|case|suit|lawsuit|dispute)|(?:takes?|took|taken|dragged|drags?) (?:\S+ ){0,3}?to court|(?:legal|court|courtroom|patent|trademark) (?:challenge|fight|dispute|threat|case|proceedings|row|clash|war|battle)|patent (?:lawsuit|suit|claims?|troll|litigation)|countersu(?:es|ed|e|ing)|counter-?suit|appeal(?:s|ed|ing)? (?:\S+ ){0,3}?(?:ruling|decision|fine|verdict|judgment|judgement|penalty|order)|(?:product|voluntary|safety|nationwide|urgent) recall|issu(?:es|ed) a recall|recall(?:s|ed|ing)? (?:\S+ ){0,4}?(?:units|vehicles|products|devices|batches|bottles|cars|packs|jars|lots)|(?:data protection|privacy|competition|consumer) (?:authority|regulator|watchdog|commissioner|complaint|probe|inquiry|case|ruling)|information commissioner|whistle-?blower)\b`, nil)

	// Recognition.
	add(radar.TypeRecognition, 0.88, "", `(?:wins?|won|winning|awarded|receiv(?:es|ed|e)|earn(?:s|ed)?|takes? home|picks? up|scoops?) (?:\S+ ){0,4}?(?:award|awards|prize|honou?r|medal|recognition|accolade|title)`, nil)
	add(radar.TypeRecognition, 0.88, "", `(?:named|listed|ranked|ranks|included|featured|selected|recogni[sz]ed) (?:\S+ ){0,3}?(?:to|in|on|among|as one of|as a|one of|in the|as)\b (?:\S+ ){0,6}?(?:list|ranking|index|top \d+|\d+ under \d+|leaders?|fastest|best|most|innovators?|startups? to watch|cool vendor)`, nil)
	add(radar.TypeRecognition, 0.85, "", `(?:makes?|made|joins?|lands? on|landed on|tops?|topped) (?:the )?(?:\S+ ){0,4}?(?:list|ranking|index)\b`, nil)
	add(radar.TypeRecognition, 0.74, "", `(?:of the year|laureate|(?:gold|silver|bronze) (?:medal|award)|shortlist(?:ed)?)\b`, nil)
	add(radar.TypeRecognition, 0.86, "", `(?:honou?red (?:as|with|to be|at)|recogni[sz]ed (?:as|by|among|for)|(?:receiv|earn)(?:es|ed|s)? (?:\S+ ){0,3}?(?:award|prize|accolade|distinction)|(?:finalist|shortlisted|nominated|nominee) (?:for|in|at)|top \d+ (?:\S+ ){0,3}?(?:list|ranking|startups|companies))`, nil)
	add(radar.TypeRecognition, 0.9, "", `(?:wins?|won|winning|awarded|takes? (?:home|first)|scoops?) (?:\S+ ){0,6}?(?:award|awards|prize|contest|competition|challenge|title|trophy|medal|hackathon|pitch)\b`, nil)
	add(radar.TypeRecognition, 0.86, "", `(?:ranks?|ranked|placed|comes?) (?:no\. ?|number |#)?\d+\w* (?:on|in|among)|(?:companies|startups|start-ups|firms) to watch|(?:incubator|accelerator|programme|program) (?:welcomes|selects|picks|admits)|(?:latest|new|spring|autumn|fall|summer|winter) (?:intake|cohort|batch)|(?:technology )?fast \d+`, nil)
	add(radar.TypeRecognition, 0.75, "", `\d+ under \d+`, nil)
	add(radar.TypeRecognition, 0.75, "", `(?:fastest[- ]growing|best places to work|great place to work|award|awards|finalist|shortlisted|winner|prize|accelerator|cohort|y combinator|techstars)\b`, nil)
	// Further recognition wording: prizes shared or collected, ranked lists, being named a winner or leader,
	// joining an accelerator, certifications.
	add(radar.TypeRecognition, 0.88, "", `(?:shares?|shared|clinch(?:es|ed)?|claims?|claimed|lifts?|lifted|collects?|collected|bags?|bagged|nabs?|nabbed|walks? away with|walked away with|triumph(?:s|ed)? (?:at|in)) (?:\S+ ){0,5}?(?:award|awards|prize|trophy|medal|title|honou?rs|accolade)\b`, nil)
	add(radar.TypeRecognition, 0.86, "", `(?:\d+ (?:most|best|top|hottest|coolest|leading|fastest[- ]growing|promising|innovative|influential)|most (?:innovative|promising|exciting|influential|admired)) (?:\S+ ){0,4}?(?:companies|startups|start-ups|firms|brands|businesses|employers|workplaces|scale-?ups|innovators|products)\b`, nil)
	add(radar.TypeRecognition, 0.86, "", `(?:inducted into|hall of fame|named (?:a |an |the )?(?:\S+ )?(?:winner|finalist|runner-up|leader|pioneer|champion|visionary)|magic quadrant|forrester wave|cool vendors?|runner-up|highly commended|commended (?:for|in|at)|long-?listed|crowned|(?:recipient|winner)s? of (?:the |this year's )?(?:\S+ ){0,4}?(?:award|prize|medal)|certified b corp\w*|b corp certification|becomes? (?:a )?(?:certified )?b corp\w*)\b`, nil)
	add(radar.TypeRecognition, 0.84, "", `(?:(?:selected|chosen|picked|accepted|admitted) (?:\S+ ){0,2}?(?:for|into|to join|to) (?:\S+ ){0,5}?(?:accelerator|incubator|cohort|fellowship|batch)|(?:joins?|joined|joining) (?:\S+ ){0,4}?(?:accelerator|incubator|cohort|fellowship)|(?:earns?|earned|achiev(?:es|ed)|gain(?:s|ed)|awarded|receiv(?:es|ed)) (?:\S+ ){0,3}?(?:certification|accreditation|kitemark|seal of approval))\b`, nil)

	// Open source.
	add(radar.TypeOpenSource, 0.88, "", `(?:open[- ]sourc(?:es|ed|ing)|open[- ]source (?:release|project|library|framework|model|sdk|tool|version)|on github|github (?:repo|repository)|new repository|stars on github)`, nil)
	add(radar.TypeOpenSource, 0.88, "", `\d[\d.,]*k? (?:github )?stars\b`, nil)
	add(radar.TypeOpenSource, 0.88, "", `(?:source code (?:is |are )?(?:now )?(?:available|public|on)|publish(?:es|ed|ing)? (?:the |its |their )?(?:source code|code|weights|model weights|dataset)|(?:code|weights|dataset) (?:is |are )?(?:now )?(?:public|freely available|on hugging ?face))`, nil)
	add(radar.TypeOpenSource, 0.9, "", `(?:under (?:an? |the )?(?:open|permissive|apache|mit|bsd|gpl|agpl|lgpl|mpl|creative commons|cc[- ]by)\S*(?: \S+)?(?: licen[cs]e)?|apache[- ]2(?:\.0)?|mit licen[cs]e|(?:agpl|gpl|lgpl|mpl)(?:v?\d)?\b|open[- ]weights?|open[- ]source (?:edition|release|version|model|library|tool)|as open[- ]source|open licen[cs]e|open[- ]sourc(?:es|ed|ing))`, nil)

	return ts
}

// boundary starts a pattern at a word boundary unless it starts with an amount, which may begin with a
// currency symbol.
func boundary(pattern string) string {
	if strings.HasPrefix(pattern, "MONEY") || strings.HasPrefix(pattern, "AMOUNT") || strings.HasPrefix(pattern, `\d`) {
		return ""
	}
	return `\b`
}

// typePriority breaks ties between types of equal weight.
var typePriority = map[string]int{
	radar.TypeAcquisition: 15, radar.TypeNewVenture: 14, radar.TypeFounderDeparture: 13, radar.TypeFunding: 12, radar.TypeContraction: 11,
	radar.TypeExecutiveChange: 10, radar.TypeLegal: 9, radar.TypeExpansion: 8, radar.TypePartnership: 7, radar.TypeProductLaunch: 6,
	radar.TypeTeamGrowth: 5, radar.TypeRecognition: 4, radar.TypeOpenSource: 3, radar.TypeWebsiteChange: 2, radar.TypeOther: 1,
}

var (
	denialRe     = regexp.MustCompile(`\b(?:den(?:y|ies|ied|ying)|refut\w+|dismiss(?:es|ed|ing)? (?:\S+ )?(?:reports?|rumou?rs?|claims?|speculation|talk)|reject(?:s|ed|ing)? (?:\S+ )?(?:reports?|rumou?rs?|claims?|speculation)|rules? out|ruled out|ruling out|debunk\w*|no truth|baseless|shoots? down|shot down|push(?:es|ed)? back on|quash\w*|squash\w*|plays? down|played down|pours? cold water)\b`)
	nearNegRe    = regexp.MustCompile(`(?:\bfail(?:s|ed|ing)? to\b|\bunable to\b|\bcould not\b|\bno\b|\bnot\b|\bnever\b|\bnor\b|\bwithout\b|n't\b|\bcannot\b|\bnone\b|\bneither\b)`)
	notNegRe     = regexp.MustCompile(`\b(?:no longer|not only|not just|no\.? \d|never before|without precedent)\b`)
	postNegRe    = regexp.MustCompile(`^[^,;]*?\b(?:(?:is|are|was|were) (?:not|false|untrue|unfounded|baseless)|not (?:planned|true|happening|expected|on the table|for sale)|false|untrue|unfounded|baseless|denied|dismissed|refuted|rejected|debunked|ruled out|won't happen|will not happen)\b`)
	speculateRe  = regexp.MustCompile(`\b(?:rumou?r\w*|chatter|gossip|whispers?|claim(?:s|ed)? (?:that )?|reportedly|report(?:s|ed)? (?:say|says|that|suggest\w*)|sources? (?:say|said|familiar|close)|people familiar|according to (?:people|sources|reports|a report)|in (?:early |advanced |exclusive )?(?:talks|discussions|negotiations)|consider(?:s|ing)|explor(?:es|ing)|weigh(?:s|ing)|mull(?:s|ing)|eye(?:s|ing)|could|might|said to be|is said to|may be|speculat\w+|potential|possible|possibly|likely|plans? to|planning to|looking to|set to|expected to|aims? to|seek(?:s|ing)?|in the market for|would|hints? at|teases?|to explore)\b`)
	headlineSpec = regexp.MustCompile(`(?:^report:|^exclusive:|\?\s*$|\brumou?r\w*|\bchatter\b|\breportedly\b|\bsources? say\b)`)
	// describedRe finds a company described rather than named, as the subject of an event.
	describedRe = regexp.MustCompile(`\b(?:firm|start-?up|company|brand|maker|business|developer|provider|operator|platform|insurer|lender|bank|studio|lab|bakery|group|producer|manufacturer|specialist|founder|co-?founder|ceo|owner|it|she|he|they|its)\b`)
	// describedNounRe is describedRe without pronouns.
	describedNounRe = regexp.MustCompile(`\b(?:firm|start-?up|company|brand|maker|business|developer|provider|operator|platform|insurer|lender|bank|studio|lab|bakery|group|producer|manufacturer|specialist|founder|co-?founder|ceo|owner)\b`)
	// firstPersonRe finds the company speaking of itself, in its own posts or a founder's.
	firstPersonRe = regexp.MustCompile(`\b(?:we|we're|we've|we'll|our|us|i|i'm|i've|my)\b`)
	// otherPartyRe finds a first-person item speaking of another company: a customer's or portfolio company's news.
	otherPartyRe     = regexp.MustCompile(`\bour (?:customer|client|partner|investor|portfolio company|friends)s?\b|\bcongratulations to\b`)
	clauseBreaks     = []string{",", ";", ":", " but ", " while ", " although ", " however ", " whereas ", " - ", "(", ")"}
	nearClauseBreaks = append([]string{" and ", " as ", " after ", " because ", " since "}, clauseBreaks...)
	roundRe          = regexp.MustCompile(`\b(?:(pre-?seed|pre seed)|(seed)|series ([a-h])|(angel)|(bridge))\b`)
	bigTeamRe        = regexp.MustCompile(`\d[\d,]*`)
	ceoRe            = regexp.MustCompile(`\b(?:ceo|chief executive)\b`)

	raiseOtherRe = regexp.MustCompile(`^ (?:the |its |their |our |some |serious |new |fresh )?(?:concerns?|questions?|prices?|awareness|the bar|eyebrows|alarms?|doubts?|hopes|expectations|issues?|the stakes|a flag|flags|fears|the profile|its profile|the level)`)
	buyOtherRe   = regexp.MustCompile(`^ (?:back |into |in |a stake|stake|shares|ads|ad space|time|tickets|software|servers)|^ (?:\S+ ){0,2}?(?:new )?(?:users|players|customers|subscribers|followers|downloads|fans|members|listeners|readers|drivers|riders)\b|^(?: \S+){1,4} as (?:a |its )?(?:customer|client|partner)`)
	enterOtherRe = regexp.MustCompile(`^enter(?:s|ed|ing)? (?:into|administration|liquidation|talks|an? |the |negotiations|receivership|(?:\S+ )?(?:collaboration|partnership|agreement|deal|alliance|venture|joint)\b)`)
	// postTitleRe finds the titles of social posts, "Ines Castro on X", whose first sentence is their headline.
	postTitleRe       = regexp.MustCompile(`^.{2,80} on (?:x|twitter|linkedin|bluesky|mastodon|threads|instagram|facebook)$`)
	dismissClaimRe    = regexp.MustCompile(`^ (?:\S+ )?(?:rumou?rs?|reports?|claims?|speculation|suggestions?|talk|the idea|concerns?)`)
	ownBusinessRe     = regexp.MustCompile(`^(?: \S+){0,4}? (?:business|company|firm|startup|start-up|studio|brand|agency|venture|group|lab|shop)\b`)
	ownThingRe        = regexp.MustCompile(`^(?: \S+){0,3}? (?:zzco|feature|features|product|version|update|app|podcast|book|newsletter|course|campaign|initiative|report|programme|program)\b|^ (?:its|the company's|our)\b`)
	nextWordRe        = regexp.MustCompile(`^ ([a-z][a-z0-9'&.-]*)`)
	transitiveLeaveRe = regexp.MustCompile(`(?:leav(?:es|ing)|left|to leave|quits?|quitting|exits?|exiting|depart(?:s|ed|ing)?)$`)
	namedToListRe     = regexp.MustCompile(`^(?:name[sd]?|naming) (?:to|in|among|on|one)`)
	expandsTeamRe     = regexp.MustCompile(`^ (?:its |the |our )?(?:team|headcount|workforce|staff|product|offering|features?)`)
	releaseOtherRe    = regexp.MustCompile(`^ (?:its |the |a |an |their |our |new )?(?:\S+ ){0,2}(?:report|statement|results|figures|data|survey|study|findings|guidance|earnings|letter|white ?paper|e-?book|podcast|video|webinar|episode|benchmark|index|ranking)s?\b`)
	pastRe            = regexp.MustCompile(`\b(?:last (?:year|month|spring|summer|autumn|fall|winter|round)|a year ago|years ago|previously|earlier (?:this|that) year|in (?:19\d\d|20[01]\d|202[0-5])|back in|to date|since (?:its|it was|the) (?:founding|founded|launch)|after (?:raising|its|a|last)|which raised|who (?:previously|earlier|founded|co-founded|sold|left|built|ran|led)|had raised|prior to|formerly|once (?:ran|led|founded)|went on to|before (?:founding|joining|starting))\b`)
	fraudToolRe       = regexp.MustCompile(`^(?:-| )(?:detection|prevention|alerts?|protection|scoring|checks?|tools?|models?|engine|screening|monitoring|controls?|teams?|signals?|risk|analytics|management|platform|api)\b`)
	launchInBetaRe    = regexp.MustCompile(`^(?:beta|preview|early access|public|private|the app store|app store|stealth)`)
)

// roundWords and notRoundWords, right after an amount, tell whether it sizes a round or something else.
var (
	roundWords    = wordSet(`round rounds funding financing investment seed pre-seed series equity raise venture capital grant grants subsidy`)
	notRoundWords = wordSet(`contract contracts order orders deal deals tender prize prizes award awards revenue revenues sales arr turnover bookings gmv`)
)

// match is the best occurrence of one type in one item.
type match struct {
	typ         string
	weight      float64 // effective weight, after position and title adjustments
	tag         string
	sentence    string
	start, end  int
	negated     bool
	speculative bool
	past        bool // the sentence tells of the past ("raised $20M last year"), so counts for less
	subject     bool // the sentence is about the company: it names the company or a founder, or speaks as them
}

// scanned is what the trigger table found in one item.
type scanned struct {
	item         Item
	change       *pageDiff        // the diff of a changed page; nil for an article
	sentences    []string         // normalised, with the company and founders replaced by their tokens
	title        bool             // sentences[0] is the title
	best         map[string]match // the best occurrence of each type
	people       []string
	mentioned    bool  // the item names the company or a founder
	titleMention bool  // the title does
	otherTitle   bool  // the title reports another company's event
	hits         []hit // every sentence's strongest affirmed occurrence per type
}

// hit is one type's strongest affirmed occurrence in one sentence, and whether that sentence names the
// company or a founder.
type hit struct {
	m     match
	head  bool // the sentence is the headline
	typ   string
	named bool
	opens string // who opens the sentence: "co" (the company, a founder, "we"), "name" (another name) or "other"
}

// scanItem runs the trigger table over an item: its title and sentences, or for a changed page the lines
// the page gained, which are what may announce news.
func scanItem(it Item, company string, founders []string) scanned {
	aliases := companyAliases(company)
	refs := founderRefs(founders)
	sc := scanned{item: it, best: map[string]match{}}

	var raw []string
	if it.Kind == ItemChange {
		d := parseDiff(it.Text)
		sc.change = &d
		for _, l := range d.added {
			raw = append(raw, splitSentences(l)...)
		}
	} else {
		if t := strings.TrimSpace(it.Title); t != "" {
			raw = append(raw, t)
			sc.title = true
		}
		raw = append(raw, splitSentences(it.Text)...)
	}

	var people []string
	denied := map[string]bool{}
	sc.sentences = make([]string, 0, len(raw))
	names := make([]bool, len(raw))
	cased := make([]string, 0, len(raw))
	for i, r := range raw {
		marked, named := markFounders(r, refs)
		people = append(people, named...)
		people = append(people, detectNames(r, aliases, true)...)
		s := markCompany(normalise(marked), aliases)
		sc.sentences = append(sc.sentences, s)
		cased = append(cased, markCased(marked, aliases, s))
		if len(named) > 0 || strings.Contains(s, companyToken) {
			names[i] = true
			sc.mentioned = true
			if i == 0 && sc.title {
				sc.titleMention = true
			}
		}
	}
	// The company speaks in the first person in its own items and in posts whose headline names it or a founder.
	speaks := !isThirdParty(it.Source) || sc.titleMention || !sc.title
	otherInTitle := map[string]bool{} // types of event the headline gives to another company
	for i, s := range sc.sentences {
		subject := func(m match) bool {
			if otherInTitle[m.typ] && !nearCompany(s, m) {
				return false
			}
			return aboutCompany(it, s, cased[i], m, names[i], sc.mentioned, speaks)
		}
		headline := i == 0 && sc.title || i == 1 && sc.title && postTitleRe.MatchString(sc.sentences[0])
		for _, m := range scanSentence(s, headline, subject) {
			if i == 0 && sc.title && !m.subject {
				otherInTitle[m.typ] = true
				sc.otherTitle = sc.otherTitle || m.weight >= significantWeight
			}
			if m.negated && (i == 0 || i == 1 && sc.title) {
				denied[m.typ] = true
			}
			if cur, ok := sc.best[m.typ]; !ok || better(m, cur) {
				sc.best[m.typ] = m
			}
			if !m.negated && m.weight >= minWeight {
				sc.hits = append(sc.hits, hit{m: m, head: headline, typ: m.typ, named: names[i] || speaks && firstPersonRe.MatchString(s), opens: opener(cased[i], speaks)})
			}
		}
	}
	// "I am leaving" is a founder's departure, or new company, only when a founder writes it.
	for _, t := range []string{radar.TypeFounderDeparture, radar.TypeNewVenture} {
		if m, ok := sc.best[t]; ok && m.tag == "author" && !(sc.title && strings.Contains(sc.sentences[0], founderToken)) {
			delete(sc.best, t)
		}
	}
	// "Seeing a rumour that Ferrule is raising. We're not.": a reported event the next sentence flatly denies.
	for t, m := range sc.best {
		if m.negated || !m.speculative && !reportedRe.MatchString(m.sentence[:m.start]) {
			continue
		}
		if i := slices.Index(sc.sentences, m.sentence); i >= 0 && i+1 < len(sc.sentences) && flatDenial(sc.sentences[i+1]) {
			m.negated, m.speculative = true, false
			sc.best[t] = m
		}
	}
	// A denial in the headline or the first sentence outweighs the rumour the rest of the item retells.
	for t, m := range sc.best {
		if denied[t] || !m.negated && m.speculative && hasDenial(sc.sentences, t) {
			m.negated, m.speculative = true, false
			sc.best[t] = m
		}
	}
	sc.people = dedupe(people)
	return sc
}

// opener tells who opens a case-kept sentence, most often its subject: "co" when one of its first three words
// is the company, a founder or (when the company speaks) "we"; "name" when it opens with a capitalised name
// other than a describing word; else "other".
func opener(cased string, speaks bool) string {
	if cased == "" {
		return "other"
	}
	words := strings.Fields(cased)
	for _, raw := range words[:min(3, len(words))] {
		w := strings.ToLower(strings.TrimSuffix(strings.Trim(raw, `"'.,:;()@`), "'s"))
		if w == companyToken || w == founderToken || speaks && (w == "we" || w == "our" || w == "i") {
			return "co"
		}
		if strings.ContainsAny(raw, ",;:") {
			break
		}
	}
	w := strings.TrimSuffix(strings.Trim(words[0], `"'.,:;()@`), "'s")
	r, _ := utf8.DecodeRuneInString(w)
	lw := strings.ToLower(w)
	if w != "" && unicode.IsUpper(r) && !describedRe.MatchString(lw) && !notNameWords[lw] && !stopWords[lw] {
		return "name"
	}
	return "other"
}

// relationRe finds the company named as another party's customer, partner, rival or backer: "Ledgerleaf
// customer Tilly", "Parsnip Pay rival Turnip", "the Northwind-backed ...", "Kiln-powered Shopwave".
var relationRe = regexp.MustCompile(`^` + companyToken + `(?:'s)?(?:-backed|-funded|-powered| (?:\S+ )?(?:customers?|clients?|partners?|rivals?|competitors?|backers?|investors?|suppliers?|portfolio compan(?:y|ies)|spin-?outs?|spin-?offs?|alum\w*))\b`)

// relatedParty reports whether the last mention of the company before position i of a sentence names it as
// another party's customer, partner, rival or backer, so that the event at i is that party's.
func relatedParty(s string, i int) bool {
	j := strings.LastIndex(s[:i], companyToken)
	return j >= 0 && relationRe.MatchString(s[j:i])
}

// auxiliaries are the words that may stand between a subject and its verb.
var auxiliaries = wordSet(`a an the has have had is are was were will would just also now today recently officially finally`)

// auxiliaryOnly reports whether a clause holds no subject of its own: nothing but auxiliaries, amounts and
// at most one other word, the verb ("has raised", "raises €12m").
func auxiliaryOnly(clause string) bool {
	other := 0
	for _, w := range strings.Fields(clause) {
		if !auxiliaries[w] && !strings.ContainsAny(w, "0123456789$€£") {
			other++
			if other > 1 || strings.Contains(w, companyToken) || strings.Contains(w, founderToken) || describedRe.MatchString(w) {
				return false
			}
		}
	}
	return true
}

// reportedRe finds an event retold from what others say: "I've read that ...", "seeing posts saying ...".
var reportedRe = regexp.MustCompile(`\b(?:read|heard|hear|seeing|saw|see|reports?|posts?|rumou?rs?|chatter|saying|says|claims?|headlines?)\b`)

// flatDenialRe finds a sentence that only says no: "We didn't.", "I'm not.", "We are not, though."
var flatDenialRe = regexp.MustCompile(`^(?:we|i|` + companyToken + `|` + founderToken + `|they|he|she|it)(?:'re|'m|'s| are| am| is| was| were| have| has)? (?:not|never|didn't|did not|haven't|have not|hasn't|has not|won't|will not|aren't|isn't|wasn't|weren't|don't|do not|doesn't|does not)\b`)

// flatDenial reports whether a normalised sentence is a short flat denial of what came before it.
func flatDenial(s string) bool {
	return flatDenialRe.MatchString(s) && len(strings.Fields(s)) <= 5
}

// aboutCompany reports whether an occurrence in sentence s (cased: the same with its case kept, or "") tells
// of the company rather than another: in the company's own items, unless it speaks of a customer's or a
// partner's news; in others, when the clause names the company or a founder before the event or the event
// names it closely ("... invests $5M in Northwind"); else when a named other company stands right before the
// event ("Cropwise acquires ..."), it is that company's, except for lawsuits and partnerships, which have two
// sides; else when the sentence names the company or a founder, or speaks in the first person, or the item
// never names the company, or the event's subject is a description ("the Leeds start-up").
func aboutCompany(it Item, s, cased string, m match, names, mentioned, speaks bool) bool {
	if otherPartyRe.MatchString(s) {
		return false
	}
	if m.typ != radar.TypeLegal && m.typ != radar.TypePartnership && relatedParty(s, m.start) {
		return false
	}
	if !isThirdParty(it.Source) {
		return true
	}
	if nearCompany(s, m) {
		return true
	}
	if cased != "" && m.typ != radar.TypeLegal && m.typ != radar.TypePartnership &&
		(namedBefore(cased, m.start) || namedSubject(cased, clauseStart(s, m.start, clauseBreaks), m.start)) {
		return false
	}
	// "Tilly, which integrates with Northwind, has raised ...": the event's clause holds no subject of its own,
	// so the sentence's subject is the event's, and it is another name.
	if cased != "" && m.typ != radar.TypeLegal && m.typ != radar.TypePartnership && m.typ != radar.TypeRecognition &&
		auxiliaryOnly(s[clauseStart(s, m.start, clauseBreaks):m.start]) && clauseStart(s, m.start, clauseBreaks) > 0 &&
		opener(cased, false) == "name" {
		return false
	}
	if m.typ == radar.TypeRecognition {
		return true // a list or an award names many companies
	}
	if names || !mentioned || speaks && firstPersonRe.MatchString(s) {
		return true
	}
	return describedRe.MatchString(s[clauseStart(s, m.start, clauseBreaks):m.start])
}

// nearCompany reports whether the clause of an occurrence names the company or a founder before it, or the
// words right after it do.
func nearCompany(s string, m match) bool {
	end := min(len(s), m.end+24)
	if i := strings.IndexAny(s[m.end:end], ",;:()"); i >= 0 {
		end = m.end + i
	}
	near := s[clauseStart(s, m.start, clauseBreaks):end]
	return strings.Contains(near, companyToken) || strings.Contains(near, founderToken)
}

// namedBefore reports whether the nearest capitalised word before position i of a case-kept sentence, within
// four words and the clause, is a name other than the company's token or a describing word: "Ledgerly
// raises $2M", "Cipherkeel with a $14M Series A".
func namedBefore(cased string, i int) bool {
	words := strings.Fields(cased[:i])
	for k := len(words) - 1; k >= 0 && k >= len(words)-4; k-- {
		raw := words[k]
		if strings.ContainsAny(raw[len(raw)-1:], ",;:(") {
			return false
		}
		w := strings.TrimSuffix(strings.Trim(raw, `"'.,:;()`), "'s")
		r, _ := utf8.DecodeRuneInString(w)
		if w == "" || !unicode.IsUpper(r) {
			if describedNounRe.MatchString(w) || prepositions[w] {
				return false // a description ("Strip District robotics company sold to"), or a place ("picks Stoke for")
			}
			continue
		}
		lw := strings.ToLower(w)
		if lw == companyToken || lw == founderToken {
			return false
		}
		return !describedRe.MatchString(lw) && !notNameWords[lw] && !firstPersonRe.MatchString(lw) && !stopWords[lw]
	}
	return false
}

var prepositions = wordSet(`in at for to from with on into across of by near`)

// namedSubject reports whether the clause from start to the event at i opens with a capitalised name other
// than the company's ("Halcyon Therapeutics prices its IPO") and holds no describing word ("Cambridge
// diagnostics firm ...").
func namedSubject(cased string, start, i int) bool {
	clause := cased[start:i]
	words := strings.Fields(clause)
	if len(words) < 2 || describedNounRe.MatchString(strings.ToLower(clause)) {
		return false
	}
	// A name is one capitalised word right before the event, or starts with two.
	if r, _ := utf8.DecodeRuneInString(words[1]); len(words) > 2 && !unicode.IsUpper(r) {
		return false
	}
	w := strings.Trim(words[0], `"'.,:;()`)
	w = strings.TrimSuffix(w, "'s")
	r, _ := utf8.DecodeRuneInString(w)
	if w == "" || !unicode.IsUpper(r) || strings.EqualFold(w, companyToken) || strings.EqualFold(w, founderToken) {
		return false
	}
	lw := strings.ToLower(w)
	return !notNameWords[lw] && !firstPersonRe.MatchString(lw) && !stopWords[lw]
}

// hasDenial reports whether some sentence denies an event of type typ.
func hasDenial(sentences []string, typ string) bool {
	for _, s := range sentences {
		if !mayDeny(s) {
			continue
		}
		for _, m := range scanSentence(s, false, nil) {
			if m.typ == typ && m.negated {
				return true
			}
		}
	}
	return false
}

// Classify decides what one item says about the company. founders are the company's founders' names, used to
// tell a founder's departure from an executive's. An article with no event is other news; a changed page is
// typed by the news its new text announces, else it is a website change, or no change when the diff is
// cosmetic (dates, counters, a copyright year).
func Classify(it Item, company string, founders []string) Finding {
	return classifyScanned(scanItem(it, company, founders), classifier())
}

// classifyScanned types a scanned item with the item model m (nil: the trigger table alone).
func classifyScanned(sc scanned, m *itemModel) Finding {
	it := sc.item
	top, found := pick(sc.best)
	if found && sc.otherTitle && !sc.titleMention && !nearCompany(top.sentence, top) {
		found = false // the item is another company's news that mentions this one
	}

	var typ string
	var score float64
	var reasons []string
	switch {
	case strings.EqualFold(it.Source, "github"):
		typ, score = radar.TypeOpenSource, 0.8
		reasons = []string{"a GitHub repository or release"}
	case sc.change != nil && sc.change.cosmetic(pricingPage(it.URL)):
		typ, score = radar.TypeNoChange, 0.6
		reasons = []string{"every changed line is page furniture or reappears with only numbers, dates or wording changed"}
	default:
		typ, score, reasons = decide(sc, top, found, m)
	}
	switch {
	case sc.change != nil && typ == radar.TypeOther:
		typ = radar.TypeWebsiteChange
	case sc.change == nil && (typ == radar.TypeWebsiteChange || typ == radar.TypeNoChange):
		typ = radar.TypeOther
	}
	f := finding(sc, typ, score)
	if m, ok := sc.best[typ]; ok {
		reasons = append([]string{fmt.Sprintf("the phrase %q", phraseOf(m))}, reasons...)
	}
	f.Reasons = reasons
	return f
}

// decide types an item that is neither a GitHub item nor a cosmetic page diff. The item model m decides when
// there is one: it weighs the item's words and the trigger table's hits (top is the strongest phrase about the
// company, when found) and names the features that weighed most. The phrase decides instead when the item is
// too short for its words to tell (a headline alone). Without a
// model the strongest phrase decides, else the item is other news, or a website change for a page diff. Other
// news that denies an event is that event, denied.
func decide(sc scanned, top match, found bool, m *itemModel) (typ string, score float64, reasons []string) {
	switch {
	case m != nil:
		fs := features(sc)
		p := m.predict(fs)
		if found && shortItem(sc) {
			typ, score = top.typ, top.weight
		} else {
			typ, score = p.typ, p.prob
			note := ""
			if alt, ok := unsupported(sc, p, m); ok {
				note = fmt.Sprintf("; not %s, as no phrase tells of the company's own current %s", typeLabel(typ), typeLabel(typ))
				typ, score = alt, p.probs[alt]
			}
			if typ == radar.TypeOther && !sc.otherTitle {
				if alt, ok := phraseOverOther(sc, p); ok {
					note += fmt.Sprintf("; not other news, as a strong phrase tells of %s", withArticle(typeLabel(alt)))
					typ, score = alt, p.probs[alt]
				}
			}
			if alt, ok := moreSignificant(sc, typ); ok {
				note += fmt.Sprintf("; the headline also reports %s, which matters more", withArticle(typeLabel(alt)))
				typ, score = alt, max(p.probs[alt], score)
			}
			why := "the item model, " + strconv.Itoa(int(math.Round(score*100))) + "% sure"
			if rs := m.reasons(sc, fs, p, typ, 4); len(rs) > 0 {
				why += ", on " + strings.Join(rs, ", ")
			}
			reasons = []string{why + note}
		}
	case found:
		typ, score = top.typ, top.weight
	case sc.change != nil:
		typ, score = radar.TypeWebsiteChange, 0.5
	default:
		typ, score = radar.TypeOther, 0.3
	}
	if typ == radar.TypeOther {
		if d, ok := strongestDenial(sc.best); ok {
			typ = d.typ
		}
	}
	return typ, score, reasons
}

// needsPhrase lists the types the item model may only give an item that has an affirmed, current phrase
// of that type about the company: money in an item is often a customer's round, revenue or a deal's value,
// and a past round or purchase is background.
var needsPhrase = map[string]bool{radar.TypeFunding: true, radar.TypeAcquisition: true}

// unsupported returns the runner-up class of prediction p when its top class needs a phrase the item lacks.
func unsupported(sc scanned, p prediction, m *itemModel) (string, bool) {
	if !needsPhrase[p.typ] {
		return "", false
	}
	if b, ok := sc.best[p.typ]; ok && b.subject && !b.negated && !(b.past && pastClause(b)) && b.weight >= minWeight {
		return "", false
	}
	alt, told := "", false
	for _, c := range m.classes {
		if c == p.typ {
			continue
		}
		t := affirmed(sc, c, minWeight)
		if alt == "" || t && !told || t == told && p.probs[c] > p.probs[alt] {
			alt, told = c, t
		}
	}
	return alt, alt != ""
}

// affirmed reports whether the item has a phrase of type typ about the company, of at least weight w, that
// is neither denied nor told of the past.
func affirmed(sc scanned, typ string, w float64) bool {
	b, ok := sc.best[typ]
	return ok && b.subject && !b.negated && !(b.past && pastClause(b)) && b.weight >= w
}

// phraseOverOther returns the type of a strong phrase about the company when the item model calls the item
// other news but still gives that type a fair share (an event told in words the model has seen little of).
func phraseOverOther(sc scanned, p prediction) (string, bool) {
	best := ""
	for t := range sc.best {
		if t == radar.TypeOther || !affirmed(sc, t, phraseOverOtherWeight) || p.probs[t] < phraseOverOtherShare {
			continue
		}
		if best == "" || p.probs[t] > p.probs[best] || p.probs[t] == p.probs[best] && t < best {
			best = t
		}
	}
	return best, best != ""
}

// The least weight of a phrase, and the least share the item model gives its type, at which the phrase
// overrules the model's call of other news.
const (
	phraseOverOtherWeight = 0.85
	phraseOverOtherShare  = 0.25
)

// moreSignificant returns the most significant event the headline reports about the company when the item
// model's type typ is one of the headline's events and a more significant one stands beside it ("Galeforce
// raises €8m bridge and cuts 25 jobs"), unless that one is part of another (the launch that is an
// open-source release).
func moreSignificant(sc scanned, typ string) (string, bool) {
	var strong []string
	for _, h := range sc.hits {
		if h.head && h.m.subject && !h.m.speculative && !h.m.past && h.m.weight >= significantWeight && !slices.Contains(strong, h.typ) {
			strong = append(strong, h.typ)
		}
	}
	if !slices.Contains(strong, typ) {
		return "", false
	}
	best := typ
	for _, t := range strong {
		if typePriority[t] > typePriority[best] && !partOf(t, sc.best, significantWeight) {
			best = t
		}
	}
	return best, best != typ
}

// pastClause reports whether the clause of an occurrence tells of the past ("which raised $20M last year"),
// not merely its sentence ("After last year's layoffs, Hummingbird has raised ...").
func pastClause(m match) bool {
	s := m.sentence
	end := len(s)
	for _, b := range clauseBreaks {
		if j := strings.Index(s[m.end:], b); j >= 0 && m.end+j < end {
			end = m.end + j
		}
	}
	return pastRe.MatchString(s[clauseStart(s, m.start, clauseBreaks):end])
}

// shortWords is the number of words under which an item is too short for the item model.
const shortWords = 15

// shortItem reports whether an item has fewer than shortWords words.
func shortItem(sc scanned) bool {
	n := 0
	for _, s := range sc.sentences {
		n += strings.Count(s, " ") + 1
		if n >= shortWords {
			return false
		}
	}
	return true
}

// strongestDenial returns the strongest denied event about the company.
func strongestDenial(best map[string]match) (match, bool) {
	var d match
	found := false
	for _, m := range best {
		if m.negated && m.subject && (!found || m.weight > d.weight || m.weight == d.weight && m.typ < d.typ) {
			d, found = m, true
		}
	}
	return d, found
}

// phraseOf returns the words an occurrence matched, with the company and founder tokens put back as words.
func phraseOf(m match) string {
	return strings.NewReplacer(companyToken, "<company>", founderToken, "<founder>").Replace(m.sentence[m.start:m.end])
}

// finding completes the finding of a scanned item of the given type: the amount, round and severity from the
// type's best occurrence, the denial, rumour and third-party modifiers, and the other current events about the
// company the item reports (another company's round or a past one is not among them).
func finding(sc scanned, typ string, score float64) Finding {
	it := sc.item
	f := Finding{Item: it, Type: typ, Score: score, People: sc.people}
	top, matched := sc.best[typ]
	if matched {
		f.Negated = top.negated
	}
	if f.Type == radar.TypeFunding || f.Type == radar.TypeAcquisition {
		f.Money = itemMoney(sc.sentences, top, matched)
	}
	if f.Type == radar.TypeFunding {
		if matched {
			f.Round = roundOf(top.sentence)
		}
		for _, s := range sc.sentences {
			if f.Round != "" {
				break
			}
			f.Round = roundOf(s)
		}
		if f.Money != nil {
			f.Score = math.Min(1, f.Score+0.03)
		}
	}
	f.Severity = severityOf(f, top, matched)

	switch {
	case f.Negated:
		f.Severity = SeverityLow
		f.Score = math.Min(f.Score, 0.2)
	case matched && top.speculative:
		f.Severity = capSeverity(f.Severity, SeverityMedium)
		f.Score = math.Min(f.Score, 0.35)
	}
	if isThirdParty(it.Source) && !sc.mentioned && f.Type != radar.TypeOther {
		f.Severity = capSeverity(f.Severity, SeverityMedium)
		f.Score *= 0.6
	}
	f.Score = math.Round(f.Score*100) / 100

	for _, t := range Types() {
		if m, ok := sc.best[t]; ok && t != f.Type && !m.negated && m.subject && !(m.past && pastClause(m)) && m.weight >= 0.75 {
			f.Secondary = append(f.Secondary, t)
		}
	}
	return f
}

// isThirdParty reports whether items from a source come from others rather than the company's own website,
// feeds or code.
func isThirdParty(source string) bool {
	switch strings.ToLower(source) {
	case "website", "feed", "github":
		return false
	}
	return true
}

// scanSentence finds, per type, the strongest trigger in one normalised sentence, preferring occurrences
// that are about the company when subject says which are (nil: all are).
func scanSentence(s string, title bool, subject func(match) bool) []match {
	found := map[string]match{}
	past := pastRe.MatchString(s)
	ps := pairsOf(s)
	for _, t := range triggers {
		if !mayMatchPairs(s, ps, t.lits) {
			continue
		}
		var first match
		have := false
		loc := t.re.FindStringIndex(s)
		if loc == nil {
			continue
		}
		locs := [][]int{loc}
		for i := 0; i < len(locs); i++ {
			loc := locs[i]
			if t.reject != nil && t.reject(s, loc[0], loc[1]) {
				if i == 0 && len(locs) == 1 {
					locs = t.re.FindAllStringIndex(s, 4) // the first occurrence does not count: look at the next ones
				}
				continue
			}
			w := t.weight - 0.08*float64(loc[0])/float64(max(len(s), 1))
			if !title {
				w -= 0.05
			}
			if past {
				w -= 0.15
			}
			m := match{typ: t.typ, weight: w, tag: t.tag, sentence: s, start: loc[0], end: loc[1], past: past, subject: true}
			if subject != nil {
				m.subject = subject(m)
			}
			if !have || m.subject && !first.subject {
				first, have = m, true
			}
			if m.subject {
				break
			}
			if i == 0 && len(locs) == 1 {
				locs = t.re.FindAllStringIndex(s, 4) // not about the company: look at the next occurrences
			}
		}
		if !have {
			continue
		}
		if cur, ok := found[t.typ]; !ok || first.subject && !cur.subject || first.subject == cur.subject && first.weight > cur.weight {
			found[t.typ] = first
		}
	}
	out := make([]match, 0, len(found))
	for _, m := range found {
		m.negated = isNegated(m.sentence, m.start, m.end)
		m.speculative = !m.negated && isSpeculative(m.sentence, m.start)
		out = append(out, m)
	}
	return out
}

// better orders two occurrences of one type: an affirmed one beats a denied one, then the higher weight wins.
func better(a, b match) bool {
	if a.negated != b.negated {
		return !a.negated
	}
	if a.subject != b.subject {
		return a.subject
	}
	return a.weight > b.weight
}

// minWeight is the least weight at which an affirmed occurrence decides an item's type; weaker hints such as
// a bare "funding" or "backed by" only count when denied ("no plans to raise").
const minWeight = 0.6

// pick chooses the item's type among the best occurrence of each type. A denied occurrence counts for less,
// so a clear affirmed event wins over it, but a weak hint ("backed by") does not. When an item reports
// several events about as strongly, the most significant one is its type, unless it is part of another
// (a founder's new company raising money, a release that is the open-sourcing).
func pick(best map[string]match) (match, bool) {
	var top match
	found := false
	for _, m := range best {
		if !m.negated && m.weight < minWeight || !m.subject {
			continue
		}
		if !found || outranks(m, top) {
			top, found = m, true
		}
	}
	if !found || top.negated {
		return top, found
	}
	floor := max(significantWeight, top.weight-significanceMargin)
	choice := top
	for _, m := range best {
		if m.negated || m.past || !m.subject || m.weight < floor || typePriority[m.typ] <= typePriority[choice.typ] || partOf(m.typ, best, floor) {
			continue
		}
		choice = m
	}
	if partOf(choice.typ, best, floor) {
		return top, true
	}
	return choice, true
}

// The least weight, and the most below the strongest, at which an event counts as reported alongside it.
const (
	significantWeight  = 0.8
	significanceMargin = 0.1
)

// partOf reports whether an event of type typ is part of another strong event of the item: the funding of a
// founder's new company, the launch that is an open-source release or an entry into a new market.
func partOf(typ string, best map[string]match, floor float64) bool {
	strong := func(t string) bool {
		m, ok := best[t]
		return ok && !m.negated && m.weight >= floor
	}
	switch typ {
	case radar.TypeFunding:
		m, ok := best[radar.TypePartnership]
		return strong(radar.TypeNewVenture) || ok && m.tag == "investor" && strong(radar.TypePartnership)
	case radar.TypeProductLaunch:
		return strong(radar.TypeNewVenture) || strong(radar.TypeOpenSource) || strong(radar.TypeExpansion)
	case radar.TypeExecutiveChange:
		return strong(radar.TypeFounderDeparture)
	}
	return false
}

func outranks(a, b match) bool {
	wa, wb := rankWeight(a), rankWeight(b)
	if math.Abs(wa-wb) > 1e-9 {
		return wa > wb
	}
	return typePriority[a.typ] > typePriority[b.typ]
}

func rankWeight(m match) float64 {
	if m.negated {
		return m.weight - 0.25
	}
	return m.weight
}

// clauseStart returns where the clause holding position i begins, given the separators that end a clause.
func clauseStart(s string, i int, breaks []string) int {
	start := 0
	prefix := s[:i]
	for _, b := range breaks {
		if j := strings.LastIndex(prefix, b); j >= 0 && j+len(b) > start {
			start = j + len(b)
		}
	}
	return start
}

// negationCues holds a part of every phrase that denialRe, nearNegRe and postNegRe match, so a sentence
// without any of them denies nothing.
var negationCues = []string{"den", "refut", "dismiss", "reject", "rul", "debunk", "no", "baseless", "shoot", "shot",
	"push", "quash", "play", "pour", "fail", "unable", "never", "without", "n't", "neither", "false", "untrue", "unfounded"}

// mayDeny reports whether a normalised sentence may deny an event: it holds one of the negation cues.
func mayDeny(s string) bool {
	return mayMatch(s, negationCues)
}

// isNegated reports whether the clause around an occurrence denies it: a denial verb before it or within it, a negation
// within five words before it, or "... are false" after it.
func isNegated(s string, start, end int) bool {
	if denialRe.MatchString(s[clauseStart(s, start, clauseBreaks):start]) {
		return true
	}
	prefix := notNegRe.ReplaceAllString(s[clauseStart(s, start, nearClauseBreaks):start], "")
	words := strings.Fields(prefix)
	if len(words) > 5 {
		words = words[len(words)-5:]
	}
	if nearNegRe.MatchString(strings.Join(words, " ")) {
		return true
	}
	if nearNegRe.MatchString(notNegRe.ReplaceAllString(s[start:end], "")) || denialRe.MatchString(s[start:end]) {
		return true
	}
	return postNegRe.MatchString(s[end:])
}

// isSpeculative reports whether an occurrence is only reported, planned or rumoured.
func isSpeculative(s string, start int) bool {
	if headlineSpec.MatchString(s) {
		return true
	}
	return speculateRe.MatchString(s[clauseStart(s, start, clauseBreaks):start])
}

// itemMoney finds the deal amount, preferring the sentence that carried the match when there is one.
func itemMoney(sentences []string, top match, matched bool) *Money {
	if matched {
		if m := dealMoney(top.sentence[top.start:]); m != nil {
			return m
		}
		if m := dealMoney(top.sentence); m != nil {
			return m
		}
	}
	for _, s := range sentences {
		if m := dealMoney(s); m != nil {
			return m
		}
	}
	return nil
}

// roundOf names the funding round stated in normalised text.
func roundOf(s string) string {
	m := roundRe.FindStringSubmatch(s)
	switch {
	case m == nil:
		return ""
	case m[1] != "":
		return "pre_seed"
	case m[2] != "":
		return "seed"
	case m[3] != "":
		return "series_" + m[3]
	case m[4] != "":
		return "angel"
	}
	return "bridge"
}

// severityOf applies the table in the package documentation.
func severityOf(f Finding, top match, matched bool) string {
	switch f.Type {
	case radar.TypeFunding:
		if f.Money != nil && f.Money.USD >= 10e6 {
			return SeverityHigh
		}
		if strings.HasPrefix(f.Round, "series_") && f.Round != "series_a" {
			return SeverityHigh
		}
		return SeverityMedium
	case radar.TypeAcquisition:
		if matched && acquisitionOfCompany(top) {
			return SeverityCritical
		}
		return SeverityHigh
	case radar.TypeExecutiveChange:
		if matched && ceoRe.MatchString(top.sentence) {
			return SeverityHigh
		}
		return SeverityMedium
	case radar.TypeFounderDeparture, radar.TypeNewVenture:
		return SeverityHigh
	case radar.TypeTeamGrowth:
		if matched && (top.tag == "big" || top.tag == "count" && largestNumber(top.sentence[top.start:top.end]) >= 20) {
			return SeverityMedium
		}
		return SeverityLow
	case radar.TypeContraction:
		switch {
		case matched && top.tag == "shutdown":
			return SeverityCritical
		case matched && top.tag == "office":
			return SeverityMedium
		}
		return SeverityHigh
	case radar.TypeProductLaunch, radar.TypePartnership, radar.TypeExpansion:
		return SeverityMedium
	case radar.TypeLegal:
		if matched && top.tag == "serious" {
			return SeverityHigh
		}
		return SeverityMedium
	}
	return SeverityLow
}

// acquisitionOfCompany reports whether an acquisition match is about the company changing hands rather than
// buying another.
func acquisitionOfCompany(m match) bool {
	switch m.tag {
	case "target", "merger", "exit":
		return true
	}
	s := m.sentence
	before := strings.Contains(s[:m.start], companyToken)
	after := strings.Contains(s[m.end:], companyToken)
	return !before && after
}

func largestNumber(s string) int {
	n := 0
	for _, d := range bigTeamRe.FindAllString(s, -1) {
		if v, err := strconv.Atoi(strings.ReplaceAll(d, ",", "")); err == nil && v > n {
			n = v
		}
	}
	return n
}

func capSeverity(sev, limit string) string {
	if SeverityRank(sev) > SeverityRank(limit) {
		return limit
	}
	return sev
}

// dedupe drops repeated names, comparing case-insensitively, and keeps the first spelling.
func dedupe(names []string) []string {
	var out []string
	for _, n := range names {
		if !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, n) }) {
			out = append(out, n)
		}
	}
	return out
}
