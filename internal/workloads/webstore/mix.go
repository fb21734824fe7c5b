package webstore

import (
	"fmt"

	"github.com/dbdyno/dbdyno/internal/workload"
)

// MixNames are what --mix weighs in an order, DVD Store 3's parameters as a weighted mix: the orders that
// begin with a login or a new customer's registration, the browse steps, the purchases, the new members, the
// review searches (each with as many reads of a product's reviews), the new reviews and helpfulness ratings.
var MixNames = []string{"login", "new_customer", "browse", "purchase", "new_member", "reviews", "new_review", "new_helpfulness"}

// standardMix is DVD Store 3's flow (the flags' defaults) per 100 orders: 20% new customers, 3 browse steps
// and one purchase an order, 1% new members, 3 review searches, 5% new reviews, 10% helpfulness ratings.
var standardMix = []float64{80, 20, 300, 100, 1, 300, 5, 10}

// flowDefaults are the flags --mix replaces, at their defaults: a --mix with one of them set otherwise is
// refused (the order's shape comes from one or the other).
func flowChanged(o *RunFlags) bool {
	return o.NewCustomers != "20%" || o.Searches != 3 || o.NewMembers != "1%" || o.ReviewSearches != 3 || o.NewReviews != "5%" || o.NewHelpfulness != "10%"
}

// applyMix sets the order's parameters from --mix: the weights are relative, an order is a login or a new
// customer (their weights together are the orders), and every other weight per order is a mean (browse,
// reviews) or a share of the orders (purchase, new_member, new_review, new_helpfulness: at most one each).
func applyMix(s string, o *RunFlags, w *Options) error {
	if s == "" {
		return nil
	}
	if flowChanged(o) {
		return fmt.Errorf("--mix %q sets the order's flow, and --new-customers, --searches, --new-members, --review-searches, --new-reviews or --new-helpfulness set it too: give one or the other", s)
	}
	m, err := workload.ParseMix(s, MixNames, standardMix)
	if err != nil {
		return err
	}
	x := m.Weights
	orders := x[0] + x[1]
	if orders <= 0 {
		return fmt.Errorf("--mix %q: every order begins with a login or a new customer: give login or new_customer a weight, e.g. login=80,new_customer=20,%s", s, s)
	}
	for i, to := range []*float64{&w.NewCustomers, &w.Searches, nil, &w.NewMembers, &w.ReviewSearches, &w.NewReviews, &w.NewHelpfulness} {
		per := x[i+1] / orders
		if i == 2 { // purchase
			if per > 1 {
				return fmt.Errorf("--mix %q: %g purchases an order: an order buys at most once, so purchase may weigh at most login and new_customer together (%g)", s, per, orders)
			}
			w.BrowseOnly = 1 - per
			continue
		}
		if per > 1 && (i == 3 || i == 5 || i == 6) {
			return fmt.Errorf("--mix %q: %s happens at most once an order, so it may weigh at most login and new_customer together (%g)", s, MixNames[i+1], orders)
		}
		*to = per
	}
	if m.Custom {
		w.Mix = m.Text
	}
	return nil
}
