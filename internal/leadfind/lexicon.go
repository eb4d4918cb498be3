package leadfind

import "strings"

// The word lists below are read-only lookup tables. They decide which capitalised words can be part of a
// name and which carry meaning for the patterns.

// wordSet returns the set of the space-separated words.
func wordSet(words string) map[string]bool {
	set := make(map[string]bool)
	for _, w := range strings.Fields(words) {
		set[w] = true
	}
	return set
}

// stopWords are capitalised at sentence starts or in headlines but never part of a person or company name.
var stopWords = wordSet(`
a an the this that these those it its it's we're we've we'll i'm i've i'll i'd they're they've you're that's here's
there's what's who's let's their theirs there they them he she his her him hers we our us
you your you'll you've you'd he's she's he'll she'll they'll it'll i me my and or but nor so yet for of in on at by to from with without into onto over under about
after before during while when since until as than then now today yesterday tomorrow tonight last next
earlier later meanwhile also both each every all some many most more less few several other another such
what which who whom whose why how where here if though although because despite according via per amid
among between following plus not no yes just only even still already again once soon recently currently together
former ex serial veteran stealth startup startups company companies firm firms venture
update updated exclusive breaking report reports reported reportedly sources source opinion analysis
interview podcast video photo photos read more news press release announcement story stories inside meet
introducing welcome welcoming bienvenidos bienvenidas bienvenido bienvenida bienvenue announcing celebrating existing honoured honored thrilled week weeks month months year years day days
congratulations congrats thanks thank kudos shoutout cheers hello hi hey merci gracias obrigado obrigada asante danke grazie
mw mwh gw gwh kw kwh km kg nasdaq nyse personal
monday tuesday wednesday thursday friday saturday sunday
january february march july september october november december
mr mrs ms dr prof sir dame
launches launch launched launching starts start started starting founds found founded founding
co-founds co-found co-founded co-founding cofounds cofound cofounded cofounding builds build built building
unveils unveil unveiled debuts debut debuted creates create created forms form formed establishes
establish established sets set spins spin spun spinning spinout spinoff spin-out spin-off out up off
joins join joined joining rejoins leaves leave left leaving departs depart departed departing departure
quits quit exits exit exited steps stepped raises raise raised raising closes closed secures secured lands
bags nabs acquires acquire acquired acquiring acquisition acquisitions buys buy bought merges merged merger
partners partnered partnering partnership partnerships teams teamed invests invest invested investing
investment investments backs backed leads led hires hire hired appoints appointed names named taps tapped
recruits recruited poaches poached welcomes welcomed adds added promotes promoted emerges emerged
am is are was were be been being has have had will would can could should may might must does did do
says said tells told announces announced announce confirms confirmed reveals revealed plans
seed pre-seed series serie série round rounds funding financing million billion ipo angel angels growth
new first second third stake deal deals
`)

// roleWords name positions and descriptions of people; capitalised, they are still never part of a name.
var roleWords = wordSet(`
ceo cto coo cfo cpo cmo cro cso cio ciso cdo vp svp evp avp president vice chief officer officers executive
executives exec execs head director directors chair chairman chairwoman chairperson founder founders
co-founder co-founders cofounder cofounders co-ceo co-ceos ceos ctos engineer engineers scientist scientists
researcher researchers professor partner manager architect designer developer alum alumni alumnus alumna
veterans entrepreneur entrepreneurs operator operators employee employees staffer staffers colleague
colleagues investor investors advisor adviser advisors advisers member members board intern gm
`)

// deptWords are part of a role only next to a role word ("VP Product", "Chief Technology Officer",
// "Product Lead", "Head of AI").
var deptWords = wordSet(`
head lead
product engineering technology technical operating operations financial finance marketing revenue sales
research design data science growth people strategy business development ai ml machine learning software
hardware platform infrastructure security information communications partnerships legal talent analytics
managing general senior principal staff commercial customer success digital global international
innovation brand creative content policy regulatory clinical medical scientific
`)

// particles join the parts of a person's name ("Ludwig van Beethoven").
var particles = wordSet(`van von de der den del della dela da di do du dos das le la bin ibn al ter ten e i en`)

// companyWords end company names and never appear in person names.
var companyWords = wordSet(`
labs lab ai technologies technology tech robotics health healthcare bio biosciences biotech therapeutics
pharma pharmaceuticals systems software analytics security energy capital ventures partners group holdings
networks cloud data solutions industries motors dynamics studios studio games media foundation university
institute college fund works hq inc ltd llc gmbh corp corporation co company interactive digital logistics
sciences finance financial payments service services connect express angels press news devices materials semiconductor semiconductors quantum aerospace
automation intelligence insights platforms computing medical diagnostics genomics mobility climate carbon
io app apps cyber fintech network labs.ai
recycling clinics clinic bank pay foods food farms farming freight learning kitchen coffee brewing wines apparel beauty
pets travel markets mining metals chemicals manufacturing consulting publishing records music films pictures
entertainment sports fitness hub retail supply supplies services dental therapy pharmacy insurance lending money wallet
credit collective cooperative agency ag agri agritech grain dairy seeds aquatics space satellites drones aviation
airlines marine maritime shipping ports automotive electric batteries battery charging grid nuclear fusion hydrogen
solar biotech dx bioworks edtech healthtech proptech insurtech legaltech medtech cleantech agtech
storage cover care ledger coatings cider bakery bakehouse estate estates water kart box wear textiles
pagos pagamentos datos dados tecnologia tecnología logística logistica salud saúde energía seguros finanzas financeira
alimentos movilidad mobilidade soluciones soluções sistemas servicios serviços technik werke gruppe santé énergie dati sistemi
pos audio video vision optics acoustics sensors sensing composites irrigation treasury brands orthopaedics orthopedics
nutrition wellness instruments tooling savings kitchens universidad universidade université universität università universiti instituto institut
`)

// Departure words say that a person has left the company named near them. Verbs may stand on either side
// of the company ("left Northwind", "co-founder of Northwind, has left"); "former" and "previously" come
// before it; "alum" and "veteran" stand next to it.
var (
	departureVerbs = wordSet(`left leaves leave leaving departs depart departed departing departure quit quits
quitting exits exited exiting exit stepped steps stepping spent`)
	departureBefore = wordSet(`former formerly ex previously onetime one-time post`)
	departureNext   = wordSet(`alum alumni alumnus alumna veteran veterans`)
	// departureWeak words mark a departure only before "at", "with", "from" or "of" the company
	// ("after six years at Northwind").
	departureWeak = wordSet(`after until once prior before`)
)

// relationCues map a word linking the tracked company to another company onto the lead relation.
var relationCues = map[string]string{
	"acquires": RelAcquiredFounder, "acquired": RelAcquiredFounder, "acquire": RelAcquiredFounder,
	"acquiring": RelAcquiredFounder, "acquisition": RelAcquiredFounder, "buys": RelAcquiredFounder,
	"bought": RelAcquiredFounder, "buy": RelAcquiredFounder, "buying": RelAcquiredFounder,
	"merges": RelAcquiredFounder, "merged": RelAcquiredFounder, "merger": RelAcquiredFounder,
	"purchase": RelAcquiredFounder, "purchased": RelAcquiredFounder, "purchases": RelAcquiredFounder,
	"takeover": RelAcquiredFounder, "acqui-hire": RelAcquiredFounder, "acquihire": RelAcquiredFounder,
	"snaps": RelAcquiredFounder, "snapped": RelAcquiredFounder, "snapping": RelAcquiredFounder,
	"absorbs": RelAcquiredFounder, "absorbed": RelAcquiredFounder, "tuck-in": RelAcquiredFounder,

	"spins": RelSpinoutFounder, "spin": RelSpinoutFounder, "spun": RelSpinoutFounder,
	"spinning": RelSpinoutFounder, "spinout": RelSpinoutFounder, "spin-out": RelSpinoutFounder,
	"spinoff": RelSpinoutFounder, "spin-off": RelSpinoutFounder, "carve-out": RelSpinoutFounder,
	"carves": RelSpinoutFounder, "carved": RelSpinoutFounder, "incubated": RelSpinoutFounder,
	"incubates": RelSpinoutFounder,

	"invests": RelPortfolioFounder, "invested": RelPortfolioFounder, "invest": RelPortfolioFounder,
	"investing": RelPortfolioFounder, "investment": RelPortfolioFounder, "investments": RelPortfolioFounder,
	"backs": RelPortfolioFounder, "backed": RelPortfolioFounder, "funds": RelPortfolioFounder,
	"funded": RelPortfolioFounder, "leads": RelPortfolioFounder, "led": RelPortfolioFounder,
	"participated": RelPortfolioFounder, "participates": RelPortfolioFounder, "portfolio": RelPortfolioFounder,
	"stake": RelPortfolioFounder, "cheque": RelPortfolioFounder, "cheques": RelPortfolioFounder,

	"partners": RelPartnerFounder, "partner": RelPartnerFounder, "partnered": RelPartnerFounder,
	"partnering": RelPartnerFounder, "partnership": RelPartnerFounder, "partnerships": RelPartnerFounder,
	"teams": RelPartnerFounder, "teamed": RelPartnerFounder, "collaborates": RelPartnerFounder,
	"collaborate": RelPartnerFounder, "collaborated": RelPartnerFounder, "collaborating": RelPartnerFounder,
	"collaboration": RelPartnerFounder, "alliance": RelPartnerFounder, "forces": RelPartnerFounder,
	"joint": RelPartnerFounder, "jv": RelPartnerFounder, "co-developed": RelPartnerFounder, "co-develops": RelPartnerFounder,
	"co-produced": RelPartnerFounder, "co-produces": RelPartnerFounder, "co-built": RelPartnerFounder,
	"distribution": RelPartnerFounder, "distributor": RelPartnerFounder, "supplier": RelPartnerFounder,
	"integrates": RelPartnerFounder, "integrating": RelPartnerFounder, "integration": RelPartnerFounder,
	"integrate": RelPartnerFounder, "integrated": RelPartnerFounder,
	"distribute": RelPartnerFounder, "distributes": RelPartnerFounder, "distributing": RelPartnerFounder,
	"resell": RelPartnerFounder, "resells": RelPartnerFounder, "reseller": RelPartnerFounder,
	"agreement": RelPartnerFounder,
}

// compoundSuffixes split "Northwind-backed" into the company and the word describing the link.
var compoundSuffixes = wordSet(`backed based led owned funded founded incubated born headquartered focused`)

// abbreviations end in a period that does not end the sentence.
var abbreviations = wordSet(`mr mrs ms dr prof st jr sr vs no approx inc ltd corp co e.g i.e ma muh moh mohd md`)

// preStops end the stretch of words read before a name to learn how the person relates to a company.
var preStops = wordSet(`by with : ( ) and & ; said says told according including alongside as that hires hired appoints
appointed names named taps tapped recruits recruited welcomes welcomed adds added promotes promoted elects elected
onboards poaches poached`)

// postStops end the stretch of words read after a name.
var postStops = wordSet(`said says told added adds noted notes explained explains wrote writes announced stated
commented according while but whereas although though ; )`)

// hireVerbs, after the tracked company, mark a hire into it.
var hireVerbs = `hires|hired|appoints|appointed|names|named|taps|tapped|recruits|recruited|welcomes|welcomed|adds|added|brings on|brought on|poaches|poached|promotes|promoted|elects|elected|onboards|hiring|appointing|announced the appointment of|announces the appointment of`

// firstNames are common given names across the languages the news the tracker reads is written in; a
// handle that opens with one and goes on with a surname ("@jamesokafor") is read as the person's name.
var firstNames = wordSet(`
aaron abdul abel abigail ada adam adebayo aditi aditya adrian adriana agnes ahmed aidan aiko aisha akira alan
alba albert alberto alejandro aleksandra alex alexander alexandra alexis alfie ali alice alicia alina alison
amara amelia amina amir amit amy ana anders andre andrea andreas andrei andres andrew andy angela angelo anil
anita ann anna anne annika anton antonio anya arjun arnav aroha arthur arun asha ashley astrid ava
ayesha aylin barbara bea beatriz ben benjamin bernard beth bianca bilal bjorn blessing bogdan boris brendan
brian bridget bruno caitlin callum camila camille carla carlos carmen caroline carolyn cassie catherine cecilia
celine charlie charlotte chen chiamaka chidi chinedu chloe chris christian christina christine christopher
ciara claire clara claudia colin connor conor craig cristina dan dana daniel daniela danielle daria dario david
dawn declan deepak deepika diana diane diego dilnoza dimitri dina dmitri dominic dominique dong duc dylan eamon
ed eddie edward efua eileen elena eli elias elif elijah elin elisa elise eliza elizabeth ella ellen elliot
eloise emeka emil emily emma emmanuel enrique eric erik erin ernesto esther ethan eva evan eve ezra fabian
farah fatima felipe felix fernando filip finn fiona florian francesca francesco francis frank freya gabriel
gabriela gareth gemma george georgia gerald gianluca gina giorgio giulia grace graham grant greg gregory greta
guillaume gustavo hamza hana hannah hans harriet harry harvey hassan hector heidi helen helena henrik henry
hiro hiroshi holly hugo ian ibrahim ida ifeoma igor ilse imran ines ingrid irene iris isaac isabel isabella
isla ismail ivan jack jacob jade jake james jamie jan jana jane janet jason javier jay jean jen jennifer jenny
jeremy jess jessica ji jiho jin joan joanna joao joe joel johan johannes john jon jonah jonas jonathan jordan
jorge jose josef joseph josh joshua juan julia julian juliana julie julien justin kai kaito kamal kareem karen
karim karin karla kate katie katja kavya kayode keith kelly ken kenji kevin kezia khalid kiran kirsty kofi
kostas kwame kwabena laila lara laura lauren layla leah lena leo leon leonardo liam lily lin lina linda lisa
liu lola lorenzo louis louise luca lucas lucia lucy luis luka lukas luke lydia magnus mai maja malik manuel
mara marc marco marcus margaret maria mariam mariana marie marina mario mark marta martin mary mateo matt
matteo matthew matthias maya meera megan mei mehmet mia michael michelle miguel mika mikael mike milan mina
ming miriam mo mohamed mohammed molly mona nadia naomi natalia natasha nathan neha neil nia nick nicola
nicolas nicole niklas nikhil nina noah noor nora nour oliver olivia omar oscar owen pablo pam paolo patricia
patrick paul paula pedro peter petra philip pierre pieter pooja priya rachel rafael rahul raj rajesh ramon
rana rashid ravi rebecca reza rhys ricardo richard rita rob robert roberto robin rohan roman rosa rose rosie
ruby rui ruth ryan sabrina sadia sakura sally sam samir samuel sana sandra sanjay sara sarah sasha saul scott
sean sebastian seo sergio shira shreya simon simone siobhan sipho sofia sofie sonia sophia sophie stefan
stefano stella stephanie stephen steve steven sunil susan suzanne svetlana tamar tanya tara tariq ted teresa
theo thomas tiago tim timothy tom tomas tommy tony tunde uma valentina vanessa vera victor victoria vikram
vincent viktor wei wendy will william xavier yara yasmin yaw yui yuki yusuf zain zainab zara zoe
matias rodrigo julio cesar ignacio gonzalo joaquin agustin emilio esteban francisco hernan hernando jaime
marcelo mauricio octavio patricio ramiro raul ruben vicente ximena catalina fernanda isabela josefina lorena
luciana manuela martina paola renata rocio romina soledad valeria veronica yolanda pilar nuria luz consuelo
dolores paulo luiz thiago guilherme henrique marcos matheus murilo otavio renato vinicius vitor caio diogo
fabio flavio leandro marcio bruna carolina debora fabiana gisele isadora larissa leticia luana priscila raquel
tatiana thais giovanni giuseppe riccardo alessandro davide federico massimo pietro tommaso vittorio alessia
chiara federica ilaria silvia etienne laurent mathieu olivier pascal remi sebastien thibault yannick amelie
aurelie elodie emilie juliette margaux mathilde oceane pauline sandrine jurgen klaus tobias wolfgang
maximilian moritz benedikt dominik birgit franziska friederike katharina leonie marlene sabine svenja ulrike
arvid axel bjørn fredrik gustav hakan jens kristian lars mikkel nils olav oskar rasmus sigurd sven torbjørn
ulf birgitta ebba freja frida hanna kari linnea malin sigrid solveig tove ylva juri kaspar mihkel priit rein
tonis andrus kadri liis triin kristjan janis andris martins ilze inese liga kristaps mindaugas darius paulius
ruta agne ieva piotr paweł krzysztof tomasz marcin michał grzegorz jakub kamil łukasz agnieszka katarzyna
małgorzata magdalena zofia ondrej jiri petr lucie tereza marketa dmitry sergei sergey alexei mikhail nikolai
pavel vladimir yuri olga irina ekaterina anastasia oksana olena taras mykola dragan marko nikola ivana jelena
milica giorgos nikos dimitris yannis eleni katerina mustafa ahmet emre burak cem deniz kerem murat oguz serkan
tolga ayse emine fatma zeynep selin ebru derya gizem muhammad ahmad umar hussein youssef mahmoud nabil rami
tarek walid ziad faisal fahad saud sultan majid abdullah abdulaziz abdulrahman amira leila maryam rania reem
salma hala huda lubna ghada mehdi hossein arash babak dariush farhad kaveh navid parisa shirin nasrin leyla
aarav akash anand ashok gaurav harish karan manish mohit pranav rakesh rohit sachin sandeep siddharth suresh
vivek aarti ananya anjali deepa divya nisha priyanka radhika riya sanya sneha sunita swati tanvi shalini
lakshmi irfan kamran usman zubair asif nadeem farhan hina mehwish rabia tanvir rashed shafiq sabina nusrat
farzana sharmin kojo kwesi ama akosua abena adwoa ikenna obinna nnamdi uchenna ngozi chioma adaeze amaka nneka
femi segun bayo kunle dayo yemi funmi folake bisi temi wanjiru wanjiku njeri akinyi achieng atieno otieno
odhiambo kamau mwangi kiprono kipchoge jomo baraka juma neema zawadi rehema mwajuma amani thabo themba
sibusiso lerato nomvula zanele thandiwe lindiwe bongani mandla abebe tesfaye dawit bereket mekdes hirut selam
tigist biniam darren ciaran cian eoin niall padraig oisin roisin aoife niamh saoirse caoimhe orla eimear
dermot fergal ruairi hamish angus euan fraser ewan alasdair morag eilidh catriona dafydd gethin owain aled
emyr llinos sioned cerys eleri
`)

// demonyms name where people or companies are from without the endings adjectiveAt reads ("-ian",
// "-ese", "-ish"): before a lowercase word they describe it and name no company.
var demonyms = wordSet(`greek french dutch thai swiss czech welsh scots german israeli iraqi pakistani bangladeshi saudi
emirati kenyan ugandan rwandan icelandic argentine filipino nepali basque catalan cypriot qatari omani yemeni afghan
uzbek kazakh kiwi european african asian nordic arab latin`)

// places are countries, regions and cities, lowercased: a name that is one of them names where something is,
// not a company or a person ("co-founded Kumasi's best-known solar company", "a distributor in Türkiye").
var places = func() map[string]bool {
	m := make(map[string]bool)
	for _, p := range strings.Split(`bahamas, barbados, belize, bhutan, burundi, chad, comoros, congo, dominica, eritrea, eswatini,
	fiji, gabon, gambia, grenada, guinea, guyana, haiti, kiribati, kyrgyzstan, lesotho, liechtenstein, maldives,
	mauritania, micronesia, nauru, palau, samoa, seychelles, suriname, tajikistan, tonga, turkmenistan, tuvalu, vanuatu,
	afghanistan, albania, algeria, andorra, angola, argentina, armenia, australia, austria,
	azerbaijan, bahrain, bangladesh, belarus, belgium, benin, bolivia, bosnia, botswana, brazil, brasil, bulgaria,
	burkina faso, cambodia, cameroon, canada, chile, china, colombia, costa rica, croatia, cuba, cyprus, czechia,
	czech republic, denmark, ecuador, egypt, el salvador, estonia, ethiopia, finland, france, georgia, germany,
	ghana, greece, guatemala, honduras, hong kong, hungary, iceland, india, indonesia, iran, iraq, ireland, israel,
	italy, ivory coast, côte d'ivoire, jamaica, japan, jordan, kazakhstan, kenya, korea, south korea, kosovo,
	kuwait, laos, latvia, lebanon, liberia, libya, lithuania, luxembourg, madagascar, malawi, malaysia, mali,
	malta, mauritius, mexico, méxico, moldova, monaco, mongolia, montenegro, morocco, mozambique, myanmar,
	namibia, nepal, netherlands, the netherlands, new zealand, nicaragua, niger, nigeria, north macedonia, norway,
	oman, pakistan, palestine, panama, paraguay, peru, philippines, poland, portugal, qatar, romania, russia,
	rwanda, saudi arabia, senegal, serbia, sierra leone, singapore, slovakia, slovenia, somalia, south africa,
	spain, sri lanka, sudan, sweden, switzerland, syria, taiwan, tanzania, thailand, togo, tunisia, turkey,
	türkiye, uganda, ukraine, united arab emirates, uae, united kingdom, uk, britain, great britain, england,
	scotland, wales, northern ireland, united states, usa, uruguay, uzbekistan, venezuela, vietnam, viet nam,
	yemen, zambia, zimbabwe,
	africa, east africa, west africa, north africa, southern africa, sub-saharan africa, asia, southeast asia,
	south asia, central asia, east asia, asia pacific, apac, europe, western europe, eastern europe, central europe,
	northern europe, southern europe, emea, latin america, latam, south america, north america, central america,
	the caribbean, caribbean, middle east, mena, gulf, the gulf, nordics, scandinavia, benelux, dach, balkans,
	baltics, the baltics, iberia, oceania, midwest, the midwest, silicon valley, bay area, the bay area,
	new england, pacific northwest, east coast, west coast, the west, the north, the south,
	alabama, alaska, arizona, arkansas, california, colorado, connecticut, delaware, florida, hawaii, hawai'i,
	idaho, illinois, indiana, iowa, kansas, kentucky, louisiana, maine, maryland, massachusetts, michigan,
	minnesota, mississippi, missouri, montana, nebraska, nevada, new hampshire, new jersey, new mexico, north
	carolina, north dakota, ohio, oklahoma, oregon, pennsylvania, rhode island, south carolina, south dakota,
	tennessee, texas, utah, vermont, virginia, west virginia, wisconsin, wyoming, alberta, british columbia,
	manitoba, new brunswick, nova scotia, ontario, quebec, québec, saskatchewan, new south wales, queensland,
	tasmania, victoria, bavaria, catalonia, andalusia, basque country, galicia, lombardy, tuscany, sardinia,
	sicily, brittany, normandy, provence, flanders, wallonia, saxony, silesia, scania, lapland, yorkshire,
	cornwall, kent, devon, essex, sussex, highlands,
	abidjan, abu dhabi, accra, adelaide, addis ababa, ahmedabad, algiers, almaty, amman, amsterdam, ankara,
	antwerp, athens, atlanta, auckland, austin, baku, baltimore, bangalore, bengaluru, bangkok, barcelona, basel,
	beijing, beirut, belfast, belgrade, berlin, bern, bilbao, birmingham, bogotá, bogota, bologna, bordeaux,
	boston, bratislava, brisbane, bristol, brno, brussels, bucharest, budapest, buenos aires, cairo, calgary,
	cambridge, canberra, cape town, caracas, cardiff, casablanca, chennai, chicago, cologne, copenhagen, cork,
	dakar, dallas, dar es salaam, delhi, new delhi, denver, detroit, dhaka, doha, dubai, dublin, durban,
	düsseldorf, dusseldorf, edinburgh, eindhoven, espoo, florence, frankfurt, gdansk, geneva, genoa, ghent,
	glasgow, gothenburg, guadalajara, guangzhou, gurugram, gurgaon, hamburg, hangzhou, hanoi, hanover, harare,
	helsinki, ho chi minh city, houston, hyderabad, ibadan, istanbul, izmir, jakarta, jeddah, johannesburg,
	kampala, karachi, kathmandu, kigali, kinshasa, kolkata, krakow, kraków, kuala lumpur, kumasi, kyiv, kiev,
	lagos, la paz, lahore, leeds, leipzig, lerwick, lille, lima, limerick, lisbon, liverpool, ljubljana, london,
	los angeles, luanda, luleå, lusaka, luxembourg city, lyon, madrid, malmö, malmo, manchester, manila,
	maputo, marseille, medellín, medellin, melbourne, mexico city, miami, milan, minneapolis, minsk, mombasa,
	monterrey, montevideo, montreal, montréal, moscow, mumbai, munich, muscat, nairobi, nantes, naples,
	new york, new york city, nice, nicosia, oakland, osaka, oslo, ottawa, oxford, palo alto, paris, perth,
	philadelphia, phoenix, pittsburgh, port harcourt, porto, prague, pretoria, pune, quito, rabat, reykjavik,
	riga, rio de janeiro, riyadh, rome, rotterdam, salt lake city, san diego, san francisco, san jose,
	santiago, são paulo, sao paulo, seattle, seoul, seville, shanghai, shenzhen, singapore city, sofia,
	stockholm, stuttgart, sydney, taipei, tallinn, tampere, tbilisi, tel aviv, the hague, tirana, tokyo,
	toronto, toulouse, tunis, turin, utrecht, valencia, vancouver, venice, vienna, vilnius, warsaw,
	washington, wellington, yerevan, zagreb, zurich, zürich,
	aarhus, aberdeen, abuja, agadir, alexandria, aleppo, arusha, asmara, asunción, asuncion, bamako, banjul, basra,
	beira, benghazi, blantyre, brazzaville, bujumbura, bulawayo, cotonou, conakry, dodoma, djibouti, douala, eldoret,
	enugu, entebbe, fez, freetown, gaborone, giza, goma, hargeisa, jinja, juba, kaduna, kano, khartoum, kisumu,
	lilongwe, lomé, lome, lubumbashi, luxor, marrakech, marrakesh, maseru, mbabane, mogadishu, monrovia, moshi,
	nakuru, ndola, niamey, nouakchott, omdurman, ouagadougou, oran, port louis, port said, saint-louis, stellenbosch,
	tangier, tripoli, windhoek, yaoundé, yaounde, zanzibar, mwanza, tamale, takoradi, abeokuta, ilorin,
	aqaba, ajman, al ain, baghdad, damascus, dammam, erbil, haifa, hebron, homs, irbid, isfahan, jerusalem, khobar,
	kuwait city, madinah, makkah, manama, mashhad, mosul, nablus, ramallah, sharjah, shiraz, tabriz,
	tehran, zarqa, ras al khaimah, fujairah, salalah, sanaa, gaza, bursa, antalya, adana, gaziantep, konya,
	ahmedabad, amritsar, bhopal, bhubaneswar, chandigarh, coimbatore, dehradun, goa, guwahati, indore, jaipur, kanpur,
	kochi, kozhikode, lucknow, ludhiana, madurai, mangalore, mysore, mysuru, nagpur, nashik, noida, patna, raipur,
	rajkot, surat, thane, thiruvananthapuram, vadodara, varanasi, visakhapatnam, colombo, kandy, chittagong,
	islamabad, rawalpindi, faisalabad, peshawar, quetta, multan, thimphu, malé, pokhara, yangon, mandalay,
	phnom penh, siem reap, vientiane, chiang mai, phuket, pattaya, da nang, haiphong, cebu, davao, quezon city,
	makati, taguig, pasig, bandung, surabaya, medan, yogyakarta, bali, denpasar, semarang, makassar, penang,
	george town, johor bahru, ipoh, kota kinabalu, kuching, malacca, melaka, cyberjaya, putrajaya, brunei,
	luzon, visayas, mindanao, metro manila, nueva ecija, la union, pampanga, batangas, cavite, laguna, bulacan, rizal,
	iloilo, bacolod, cagayan de oro, baguio, zamboanga, palawan, bohol, leyte, tacloban, general santos, ilocos,
	benguet, albay, negros, pangasinan, tarlac, cần thơ, can tho, đồng nai, dong nai, thủ đức, thu duc, bình dương,
	binh duong, huế, nha trang, vũng tàu, vung tau, hải phòng, hai phong, quảng ninh, quang ninh, bắc ninh, bac ninh,
	mekong delta, đà lạt, da lat, dalat, hà nội, sài gòn, saigon, đà nẵng, java, sumatra, sulawesi, kalimantan,
	borneo, papua, lombok, malang, bogor, bekasi, depok, tangerang, surakarta, palembang, pekanbaru, balikpapan,
	pontianak, manado, aceh, riau, batam, bandar lampung, jogja, selangor, sabah, sarawak, kedah, perak, pahang,
	kelantan, terengganu, negeri sembilan, petaling jaya, shah alam, subang jaya, klang, seremban, kuantan, alor setar,
	kota bharu, khon kaen, nakhon ratchasima, korat, chiang rai, hat yai, udon thani, isan, isaan, ayutthaya,
	nonthaburi, rayong, chonburi, hua hin, krabi, songkhla, jurong, tampines, punggol,
	busan, incheon, daegu, daejeon, gwangju, pangyo, jeju, yokohama, nagoya, kyoto, kobe, fukuoka, sapporo, sendai,
	hiroshima, okinawa, tsukuba, chengdu, chongqing, wuhan, nanjing, suzhou, xi'an, xian, tianjin, qingdao, xiamen,
	dalian, shenyang, harbin, changsha, kunming, hefei, zhengzhou, jinan, ningbo, dongguan, foshan, macau, macao,
	kaohsiung, taichung, tainan, hsinchu, ulaanbaatar, ulan bator, tashkent, samarkand, bishkek, astana, dushanbe,
	ashgabat, kabul, gold coast, hobart, newcastle, geelong, wollongong, christchurch, dunedin,
	tauranga, suva, port moresby,
	aachen, aalborg, alicante, amiens, augsburg, bari, bergen, bielefeld, bochum, bonn, bremen, brest, brighton,
	bruges, caen, cagliari, catania, chemnitz, cluj, cluj-napoca, coimbra, cordoba, córdoba, darmstadt, debrecen,
	delft, dijon, dortmund, dresden, dundee, exeter, faro, gdynia, granada, graz, grenoble, groningen,
	göteborg, haarlem, heidelberg, innsbruck, karlsruhe, kassel, katowice, kaunas, kharkiv, kiel, klagenfurt,
	košice, kosice, lausanne, leicester, leiden, leuven, linköping, linkoping, linz, liège, liege, lodz, łódź,
	lugano, lviv, maastricht, mainz, malaga, málaga, mannheim, montpellier, murcia, nantes, nijmegen, nottingham,
	novi sad, nuremberg, nürnberg, odense, odesa, odessa, oulu, padua, palermo, pamplona, parma, perpignan,
	pisa, plovdiv, plymouth, porto alegre, poznan, poznań, reims, rennes, reykjavík, rostock, saarbrücken,
	salamanca, salzburg, san sebastián, san sebastian, santander, sheffield, skopje, southampton, st petersburg,
	saint petersburg, strasbourg, sunderland, swansea, szczecin, tarragona, tartu, thessaloniki, timisoara,
	timișoara, toledo, trieste, trondheim, turku, uppsala, valladolid, varna, verona, vigo, vitoria, wroclaw,
	wrocław, zaragoza, bergamo, brescia, modena, lucerne, luzern, winterthur, st gallen, zug, vaduz,
	arequipa, barranquilla, belo horizonte, brasília, brasilia, cali, campinas, cartagena, cochabamba, córdoba,
	cuenca, curitiba, florianópolis, florianopolis, fortaleza, guayaquil, havana, manaus, mendoza,
	mérida, merida, panama city, puebla, querétaro, queretaro, recife, rosario, san juan, san salvador,
	santa cruz, santo domingo, tegucigalpa, tijuana, valparaíso, valparaiso, managua, guatemala city, port of spain,
	cusco, trujillo, asunción, punta arenas, patagonia, mato grosso, minas gerais, bahia, yucatán, yucatan, oaxaca,
	jalisco, nuevo león, antioquia,
	albuquerque, anchorage, ann arbor, boise, boulder, charleston, chattanooga,
	cincinnati, cleveland, des moines, el paso, fort worth, fresno, hartford, honolulu,
	indianapolis, jacksonville, kansas city, knoxville, las vegas, little rock, louisville,
	memphis, milwaukee, nashville, new haven, new orleans, oklahoma city, omaha, orlando, pasadena,
	portland, raleigh, reno, rochester, sacramento, san antonio, santa barbara, santa clara,
	santa monica, scottsdale, spokane, st louis, st. louis, syracuse, tacoma, tampa, tucson, tulsa,
	brooklyn, manhattan, queens, the bronx, mountain view, sunnyvale, cupertino, menlo park, redwood city,
	halifax, edmonton, winnipeg, saskatoon, kitchener, quebec city,
	mississauga, st john's,
	knaresborough, harrogate, st austell, aberystwyth, inverness, stirling, canterbury, norwich, cheltenham,
	kerala, karnataka, maharashtra, tamil nadu, gujarat, punjab, rajasthan, telangana, bihar, west bengal,
	uttar pradesh, madhya pradesh, andhra pradesh, haryana, odisha, assam, sindh, balochistan, khyber pakhtunkhwa,
	java, sumatra, borneo, sabah, sarawak, mindanao, luzon, visayas, hokkaido, kyushu, honshu, guangdong,
	sichuan, zhejiang, jiangsu, fujian, yunnan, hainan, shenzhen bay, greater bay area, rift valley, sahel,
	the sahel, maghreb, levant, the levant, kurdistan, anatolia, darfur, lombok, gauteng, western cape, kwazulu-natal,
	lagos state, rivers state, kano state, aburrá valley, ruhr, the ruhr, black forest, alps, the alps, riviera,
	côte d'azur, algarve, bretagne, alsace, piedmont, veneto, emilia-romagna, puglia, apulia, campania, calabria,
	puerto rico, santa marta, los andes, andes, rio verde, san juan de lurigancho, alta verapaz, petén, peten,
	orocovis, barranquitas, ponce, mayagüez, bayamón, caguas, arecibo, quetzaltenango, antigua guatemala,
	san pedro sula, heredia, alajuela, cartago, puntarenas, guanacaste, chiriquí, maracaibo, barquisimeto, goiânia,
	belém, são luís, joão pessoa, maceió, teresina, campo grande, cuiabá, ribeirão preto, uberlândia, juiz de fora,
	londrina, joinville, blumenau, caxias do sul, sorocaba, chihuahua, hermosillo, culiacán, mazatlán, veracruz,
	villahermosa, tuxtla gutiérrez, cancún, playa del carmen, campeche, chiapas, tabasco, sonora, sinaloa,
	baja california, coahuila, saltillo, aguascalientes, san luis potosí, morelia, toluca, pachuca, la plata,
	mar del plata, tucumán, neuquén, bariloche, bahía blanca, santa fe, concepción, antofagasta, la serena, temuco,
	viña del mar, valdivia, puerto montt, iquique, atacama, piura, chiclayo, iquitos, huancayo, callao, miraflores,
	san isidro, bucaramanga, pereira, manizales, ibagué, cúcuta, villavicencio, popayán, palmira, jamundí,
	envigado, valle del cauca, cundinamarca, boyacá, punta del este, paysandú, santa cruz de la sierra, el alto,
	galápagos, kingston, montego bay, port-au-prince, bridgetown, nassau, santiago de los caballeros, punta cana,
	curaçao, aruba, trinidad, tobago, martinique, guadeloupe, rio grande do sul, rio grande do norte,
	santa catarina, paraná, pernambuco, ceará, goiás, espírito santo, mato grosso do sul, hamilton, regina,
	moncton, fredericton, sherbrooke, gatineau, laval, kelowna, kamloops, mountain west, sun belt, rust belt,
	tri-state area, appalachia, great plains`, ",") {
		if p = strings.Join(strings.Fields(p), " "); p != "" { // a name may run over a line break
			m[p] = true
		}
	}
	return m
}()
