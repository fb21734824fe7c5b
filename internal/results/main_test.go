package results_test

import (
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// The tests run dbdyno's commands in process (clitest), in a home of their own.
func TestMain(m *testing.M) { clitest.Main(m) }
