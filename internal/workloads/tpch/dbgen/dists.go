package dbgen

import "strings"

// The value lists and weights of the TPC-H specification (clause 4.2.2.13 and 4.2.3): the word lists and
// grammar of the comment text, and the lists columns draw from. Each list is "value:weight" entries separated
// by ";" (a weight of 1 may be left out).

type distribution struct {
	values  []string
	weights []int32 // cumulative
	expand  []string
	ids     []uint16 // the text pool's word id of each entry of expand (text.go), for the lists the text draws from
}

func newDist(spec string) *distribution {
	d := &distribution{}
	var total int32
	for _, e := range strings.Split(spec, ";") {
		v, w := e, int32(1)
		if i := strings.LastIndex(e, ":"); i > 0 && i < len(e)-1 && e[i+1] >= '0' && e[i+1] <= '9' {
			v = e[:i]
			w = 0
			for _, c := range e[i+1:] {
				w = w*10 + int32(c-'0')
			}
		}
		total += w
		d.values = append(d.values, v)
		d.weights = append(d.weights, total)
		for k := int32(0); k < w; k++ {
			d.expand = append(d.expand, v)
		}
	}
	return d
}

// random draws a value with probability proportional to its weight.
func (d *distribution) random(r *rowRand) string {
	return d.expand[r.intn(0, int32(len(d.expand))-1)]
}

var (
	distPartContainers = newDist(crossJoin("SM LG MED JUMBO WRAP", "CASE BOX BAG JAR PACK PKG CAN DRUM"))
	distInstructions   = newDist("DELIVER IN PERSON;COLLECT COD;TAKE BACK RETURN;NONE")
	distSegments       = newDist("AUTOMOBILE;BUILDING;FURNITURE;HOUSEHOLD;MACHINERY")
	distRegions        = newDist("AFRICA;AMERICA;ASIA;EUROPE;MIDDLE EAST")
	distPriorities     = newDist("1-URGENT;2-HIGH;3-MEDIUM;4-NOT SPECIFIED;5-LOW")
	distReturnFlags    = newDist("R;A")
	distShipModes      = newDist("REG AIR;AIR;RAIL;TRUCK;MAIL;FOB;SHIP")
	distPartTypes      = newDist(crossJoin3("STANDARD SMALL MEDIUM LARGE ECONOMY PROMO", "ANODIZED BURNISHED PLATED POLISHED BRUSHED", "TIN NICKEL BRASS STEEL COPPER"))
	distColors         = newDist(strings.ReplaceAll("almond antique aquamarine azure beige bisque black blanched blue blush brown burlywood "+
		"burnished chartreuse chiffon chocolate coral cornflower cornsilk cream cyan dark deep dim dodger drab firebrick floral "+
		"forest frosted gainsboro ghost goldenrod green grey honeydew hot indian ivory khaki lace lavender lawn lemon light lime "+
		"linen magenta maroon medium metallic midnight mint misty moccasin navajo navy olive orange orchid pale papaya peach "+
		"peru pink plum powder puff purple red rose rosy royal saddle salmon sandy seashell sienna sky slate smoke snow spring "+
		"steel tan thistle tomato turquoise violet wheat white yellow", " ", ";"))
	distNouns = newDist("packages:40;requests:40;accounts:40;deposits:40;foxes:20;ideas:20;theodolites:20;pinto beans:20;" +
		"instructions:20;dependencies:10;excuses:10;platelets:10;asymptotes:10;courts:5;dolphins:5;multipliers;sauternes;" +
		"warthogs;frets;dinos;attainments;somas;Tiresias;patterns;forges;braids;frays;warhorses;dugouts;notornis;epitaphs;" +
		"pearls;tithes;waters;orbits;gifts;sheaves;depths;sentiments;decoys;realms;pains;grouches;escapades;hockey players")
	distVerbs = newDist("sleep:20;wake:20;are:20;cajole:20;haggle:20;nag:10;use:10;boost:10;affix:5;detect:5;integrate:5;" +
		"maintain;nod;was;lose;sublate;solve;thrash;promise;engage;hinder;print;x-ray;breach;eat;grow;impress;mold;poach;" +
		"serve;run;dazzle;snooze;doze;unwind;kindle;play;hang;believe;doubt")
	distAdverbs = newDist("sometimes;always;never;furiously:50;slyly:50;carefully:50;blithely:40;quickly:30;fluffily:20;" +
		"slowly;quietly;ruthlessly;thinly;closely;doggedly;daringly;bravely;stealthily;permanently;enticingly;idly;busily;" +
		"regularly;finally;ironically;evenly;boldly;silently")
	distArticles     = newDist("the:50;a:20;an:5")
	distPrepositions = newDist("about:50;above:50;according to:50;across:50;after:50;against:40;along:40;alongside of:30;" +
		"among:30;around:20;at:10;atop;before;behind;beneath;beside;besides;between;beyond;by;despite;during;except;for;" +
		"from;in place of;inside;instead of;into;near;of;on;outside;over;past;since;through;throughout;to;toward;under;" +
		"until;up;upon;whithout;with;within")
	distAuxiliaries = newDist("do;may;might;shall;will;would;can;could;should;ought to;must;will have to;shall have to;" +
		"could have to;should have to;must have to;need to;try to")
	distTerminators = &distribution{expand: expandWeights([]string{".", ";", ":", "?", "!", "--"}, []int{50, 1, 1, 1, 1, 1})}
	distAdjectives  = newDist("special:20;pending:20;unusual:20;express:20;furious;sly;careful;blithe;quick;fluffy;slow;" +
		"quiet;ruthless;thin;close;dogged;daring;brave;stealthy;permanent;enticing;idle;busy;regular:50;final:40;ironic:40;" +
		"even:30;bold:20;silent:10")
	distGrammar    = newDist("N V T:3;N V P T:3;N V N T:3;N P V N T:1;N P V P T:1")
	distNounPhrase = newDist("N:10;J N:20;J, J N:10;D J N:50")
	distVerbPhrase = newDist("V:30;X V:1;V D:40;X V D:1")
)

// nations are the 25 nations in key order with their region keys (clause 4.2.3).
var nations = []struct {
	name   string
	region int64
}{
	{"ALGERIA", 0}, {"ARGENTINA", 1}, {"BRAZIL", 1}, {"CANADA", 1}, {"EGYPT", 4}, {"ETHIOPIA", 0}, {"FRANCE", 3},
	{"GERMANY", 3}, {"INDIA", 2}, {"INDONESIA", 2}, {"IRAN", 4}, {"IRAQ", 4}, {"JAPAN", 2}, {"JORDAN", 4}, {"KENYA", 0},
	{"MOROCCO", 0}, {"MOZAMBIQUE", 0}, {"PERU", 1}, {"CHINA", 2}, {"ROMANIA", 3}, {"SAUDI ARABIA", 4}, {"VIETNAM", 2},
	{"RUSSIA", 3}, {"UNITED KINGDOM", 3}, {"UNITED STATES", 1},
}

func crossJoin(a, b string) string {
	var out []string
	for _, x := range strings.Fields(a) {
		for _, y := range strings.Fields(b) {
			out = append(out, x+" "+y)
		}
	}
	return strings.Join(out, ";")
}

func crossJoin3(a, b, c string) string {
	var out []string
	for _, x := range strings.Fields(a) {
		for _, y := range strings.Fields(b) {
			for _, z := range strings.Fields(c) {
				out = append(out, x+" "+y+" "+z)
			}
		}
	}
	return strings.Join(out, ";")
}

func expandWeights(values []string, weights []int) []string {
	var out []string
	for i, v := range values {
		for k := 0; k < weights[i]; k++ {
			out = append(out, v)
		}
	}
	return out
}

// NationInfo is a nation's name and region key.
type NationInfo struct {
	Name   string
	Region int
}

// NationNames lists the 25 nations in key order.
func NationNames() []NationInfo {
	out := make([]NationInfo, len(nations))
	for i, n := range nations {
		out[i] = NationInfo{n.name, int(n.region)}
	}
	return out
}
