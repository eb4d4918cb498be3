package fuzzy

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

var (
	brandHeads = []string{"North", "Bright", "Blue", "Green", "Quantum", "Helio", "Nova", "Silver", "Iron", "Cloud",
		"Deep", "Swift", "Lumen", "Terra", "Aero", "Hyper", "Micro", "Nimbus", "Orbit", "Pixel", "Red", "Solar",
		"Stone", "True", "Vertex", "Wild", "Zen", "Alpha", "Apex", "Atlas", "Clear", "Core", "Echo", "Flux"}
	brandTails = []string{"wind", "wave", "stack", "forge", "field", "point", "star", "gate", "bridge", "line",
		"path", "works", "mind", "loop", "craft", "spark", "base", "flow", "hive", "leaf", "labs", "shift", "scale",
		"sense", "stream", "tide", "vault", "yard", "grid", "mint"}
	syllables = []string{"ka", "lo", "mi", "ra", "zen", "tu", "vo", "pe", "qui", "sa", "no", "ri", "xa", "bel",
		"dor", "fi", "gan", "ho", "ju", "lek", "mar", "nis", "ov", "pra", "sol", "tek", "ul", "vin", "wes", "yo"}
	descriptors = []string{"Labs", "Analytics", "Robotics", "Health", "Capital", "Systems", "Energy", "Foods",
		"Logistics", "Security", "Bio", "AI", "Software", "Networks", "Finance", "Studio", "Materials", "Mobility"}
	legalForms   = []string{"Inc.", "Ltd", "GmbH", "SAS", "B.V.", "AB", "Oy", "LLC", "plc", "Pty Ltd", "S.p.A."}
	hostPrefixes = []string{"www.", "www.", "www.", "", "", "get", "try", "www.hello"}
	hostSuffixes = []string{"", "", "", "", "", "hq", "app", "labs", "-ai", "tech"}
	tlds         = []string{"com", "io", "ai", "co.uk", "de", "fr", "com.au", "vc", "tech", "app"}
	firstNames   = []string{"Jane", "Ravi", "Tom", "Anna", "Zoë", "Sam", "Lena", "Mark", "Nina", "Peter", "Élodie",
		"Hiro", "Erik", "Karin", "Alex", "Maya", "Omar", "Ida", "Ian", "Bea", "Giulia", "Joost", "Ciara", "Ali",
		"Søren", "Chen", "Priya", "Lucas", "Fatima", "Noah", "Mia", "Kenji", "Olga", "Diego", "Amara", "Yusuf"}
	lastNames = []string{"Doe", "Patel", "Baker", "Müller", "Lefèvre", "O'Brien", "Fischer", "Owens", "Park",
		"Smith", "Durand", "Tanaka", "Lind", "Berg", "Kim", "Chen", "Haddad", "Novak", "Ross", "Lopez", "Rossi",
		"van Dijk", "O’Reilly", "Ghodsi", "Østergaard", "Wang", "Singh", "Silva", "Nakamura", "Ivanova", "García",
		"Okafor", "Yilmaz", "Kowalski", "Andersson", "Dubois", "Schmidt", "Nguyen", "Hughes", "Moreau"}
)

func pick(r *rand.Rand, words []string) string { return words[r.IntN(len(words))] }

// syntheticDocs returns n companies with realistic-looking names, websites and founders, the same for a
// given n on every run.
func syntheticDocs(n int) []Doc {
	r := rand.New(rand.NewPCG(1, 2))
	docs := make([]Doc, n)
	for i := range docs {
		var brand string
		if r.IntN(10) < 3 {
			brand = pick(r, brandHeads) + pick(r, brandTails)
		} else {
			for range 2 + r.IntN(3) {
				brand += pick(r, syllables)
			}
			brand = strings.ToUpper(brand[:1]) + brand[1:]
		}
		name := brand
		if r.IntN(3) > 0 {
			name += " " + pick(r, descriptors)
		}
		if r.IntN(3) == 0 {
			name += " " + pick(r, legalForms)
		}
		founders := make([]string, 1+r.IntN(3))
		for j := range founders {
			founders[j] = pick(r, firstNames) + " " + pick(r, lastNames)
		}
		docs[i] = Doc{
			ID:          fmt.Sprintf("%08x-0000-4000-8000-%012x", i, i),
			CompanyName: name,
			Website:     "https://" + pick(r, hostPrefixes) + strings.ToLower(brand) + pick(r, hostSuffixes) + "." + pick(r, tlds) + "/",
			Founders:    founders,
		}
	}
	return docs
}

// syntheticQueries returns n lookups mixing exact names, case and spacing changes, typos, prefixes,
// founder names, domains and texts that match nothing.
func syntheticQueries(docs []Doc, n int) []string {
	r := rand.New(rand.NewPCG(3, 4))
	typo := func(s string) string {
		rs := []rune(s)
		if len(rs) < 4 {
			return s
		}
		i := 1 + r.IntN(len(rs)-2)
		switch r.IntN(3) {
		case 0:
			return string(slices.Delete(rs, i, i+1))
		case 1:
			rs[i], rs[i+1] = rs[i+1], rs[i]
		default:
			rs[i] = rune('a' + r.IntN(26))
		}
		return string(rs)
	}
	qs := make([]string, n)
	for i := range qs {
		d := docs[r.IntN(len(docs))]
		switch i % 8 {
		case 0:
			qs[i] = d.CompanyName
		case 1:
			qs[i] = strings.ToLower(strings.ReplaceAll(d.CompanyName, " ", ""))
		case 2, 3:
			qs[i] = typo(strings.ToLower(d.CompanyName))
		case 4:
			qs[i] = d.Founders[0]
		case 5:
			qs[i] = strings.TrimPrefix(strings.TrimSuffix(d.Website, "/"), "https://www.")
		case 6:
			qs[i] = strings.ToLower(d.CompanyName[:min(len(d.CompanyName), 4+r.IntN(4))])
		default:
			qs[i] = pick(r, syllables) + pick(r, descriptors) + fmt.Sprint(r.IntN(1000)) + " holdings"
		}
	}
	return qs
}

// lookupSizes are the numbers of companies the lookup benchmarks index. 1,000,000 takes about ten times the
// 100,000 figures: some 20 s and 2 GB to build on a small machine, so it is asked for with the flag.
var lookupSizes = flag.String("lookup.sizes", "10000,100000", "comma-separated numbers of companies the lookup benchmarks index, e.g. 10000,100000,1000000")

// sizes runs fn as a sub-benchmark n=N for each size of -lookup.sizes.
func sizes(b *testing.B, fn func(b *testing.B, n int)) {
	for _, s := range strings.Split(*lookupSizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			b.Fatalf("-lookup.sizes: %q is not a number of companies", s)
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { fn(b, n) })
	}
}

// BenchmarkBuild builds the index of each size of -lookup.sizes.
func BenchmarkBuild(b *testing.B) {
	sizes(b, func(b *testing.B, n int) {
		docs := syntheticDocs(n)
		b.ReportAllocs()
		for b.Loop() {
			Build(docs)
		}
	})
}

// BenchmarkLookup reports the mean (ns/op) and 99th-percentile latency of lookups over each size of
// -lookup.sizes, in wall time and in the CPU time of the looking-up thread, and the heap the index holds.
func BenchmarkLookup(b *testing.B) {
	sizes(b, func(b *testing.B, n int) {
		docs := syntheticDocs(n)
		benchLookups(b, docs, syntheticQueries(docs, 2000))
	})
}

// BenchmarkLookupOneWordTypos is BenchmarkLookup for its costliest queries: one word with one or two
// typos, which widen the trigram search and are checked for edit distance, and full website addresses.
func BenchmarkLookupOneWordTypos(b *testing.B) {
	sizes(b, func(b *testing.B, n int) {
		docs := syntheticDocs(n)
		r := rand.New(rand.NewPCG(5, 6))
		qs := make([]string, 2000)
		for i := range qs {
			d := docs[r.IntN(len(docs))]
			rs := []rune(strings.ToLower(strings.Fields(d.CompanyName)[0]))
			for range 1 + i%2 {
				if len(rs) < 5 {
					break
				}
				j := 1 + r.IntN(len(rs)-2)
				if i%3 == 0 {
					rs[j], rs[j+1] = rs[j+1], rs[j]
				} else {
					rs = slices.Delete(rs, j, j+1)
				}
			}
			qs[i] = string(rs)
			if i%4 == 3 {
				qs[i] = strings.ToUpper(d.Website) + "about"
			}
		}
		benchLookups(b, docs, qs)
	})
}

func benchLookups(b *testing.B, docs []Doc, queries []string) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	ix := Build(docs)
	runtime.GC()
	runtime.ReadMemStats(&after)

	// Wall time counts the waits of a shared machine; the thread's CPU time does not, so both are reported.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var (
		took, cpu []time.Duration
		outcomes  [3]int
	)
	for i := 0; b.Loop(); i++ {
		c0, cpuOK := threadCPU()
		start := time.Now()
		res := ix.Lookup(queries[i%len(queries)])
		took = append(took, time.Since(start))
		if c1, ok := threadCPU(); ok && cpuOK {
			cpu = append(cpu, c1-c0)
		}
		outcomes[res.Outcome]++
	}
	b.StopTimer()
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)*99/100].Nanoseconds()), "p99-ns")
	if len(cpu) > 0 {
		slices.Sort(cpu)
		b.ReportMetric(float64(cpu[len(cpu)*99/100].Nanoseconds()), "p99-cpu-ns")
	}
	b.ReportMetric(float64(outcomes[Matched])/float64(len(took)), "matched/op")
	b.ReportMetric(float64(outcomes[Ambiguous])/float64(len(took)), "ambiguous/op")
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "index-MiB")
	runtime.KeepAlive(ix)
}
