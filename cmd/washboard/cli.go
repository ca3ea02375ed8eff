package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"time"

	"washboard/internal/version"
)

const usage = `washboard — a dashboard for connected washroom dispensers

Usage:
  washboard demo [flags]     run the dashboard on a simulated fleet (start here)
  washboard serve [flags]    run the dashboard against a Device Monitoring Service
  washboard sim [flags]      serve a simulated Device Monitoring Service
  washboard version          print the version

Run "washboard <command> -h" for the flags of a command. Every flag can also
be set with an environment variable: --api-key is WASHBOARD_API_KEY.
`

// run runs the command line args and returns the process exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "sim":
		err = runSim(ctx, args[1:], stdout, stderr)
	case "serve":
		err = runServe(ctx, args[1:], stdout, stderr)
	case "demo":
		err = runDemo(ctx, args[1:], stdout, stderr)
	case "version", "--version", "-version":
		fmt.Fprintln(stdout, "washboard", version.String())
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
	default:
		fmt.Fprintf(stderr, "washboard: unknown command %q (see washboard --help)\n", args[0])
		return 2
	}
	var mistake flagError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &mistake):
		fmt.Fprintf(stderr, "%s: %s (see %s --help)\n", mistake.cmd, mistake.msg, mistake.cmd)
		return 2
	case errors.As(err, new(usageError)):
		fmt.Fprintln(stderr, "washboard:", err)
		return 2
	default:
		fmt.Fprintln(stderr, "washboard:", err)
		return 1
	}
}

// usageError is a mistake in the command line or the environment.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// flagError is a mistake in a command's flags or arguments, said in one
// line that names the command, whose --help lists its flags.
type flagError struct{ cmd, msg string }

func (e flagError) Error() string { return e.cmd + ": " + e.msg }

// parseFlags parses args, then fills every flag not given on the command
// line from its environment variable, WASHBOARD_ followed by the flag's
// name in upper case with dashes as underscores. --help shows the flags;
// a mistake is one line (the flag package would print the whole usage).
func parseFlags(fs *flag.FlagSet, args []string, env func(string) string) error {
	out := fs.Output()
	var said bytes.Buffer
	fs.SetOutput(&said)
	err := fs.Parse(args)
	fs.SetOutput(out)
	switch {
	case errors.Is(err, flag.ErrHelp):
		out.Write(said.Bytes())
		return err
	case err != nil:
		return flagError{fs.Name(), flagMistake(err)}
	case fs.NArg() > 0:
		return flagError{fs.Name(), fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	fs.VisitAll(func(f *flag.Flag) {
		if given[f.Name] || err != nil {
			return
		}
		name := envName(f.Name)
		if v := env(name); v != "" {
			if serr := fs.Set(f.Name, v); serr != nil {
				err = usageError{fmt.Sprintf("%s=%q: %v", name, v, serr)}
			}
		}
	})
	return err
}

// flagMistake says a mistake the flag package found with the flags as
// this command's help spells them, with two dashes: "unknown flag
// --listne".
func flagMistake(err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		return "unknown flag --" + name
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return "--" + name + " needs a value"
	}
	msg = strings.Replace(msg, " for flag -", " for -", 1) // invalid value "x" for flag -devices
	return strings.Replace(msg, " for -", " for --", 1)
}

func envName(flagName string) string {
	return "WASHBOARD_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("washboard "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// durationValue is a flag holding a duration that also accepts days:
// "30d", "1d12h", "90m".
type durationValue time.Duration

func (d *durationValue) String() string { return formatDuration(time.Duration(*d)) }

func (d *durationValue) Set(s string) error {
	v, err := parseDuration(s)
	if err != nil {
		return err
	}
	*d = durationValue(v)
	return nil
}

func parseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, fmt.Errorf("empty duration: use a value such as 30d, 12h or 1d12h")
	}
	var days time.Duration
	if i := strings.IndexByte(s, 'd'); i >= 0 {
		n, err := strconv.Atoi(s[:i])
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%q is not a duration such as 30d, 12h or 1d12h", s)
		}
		days = time.Duration(n) * 24 * time.Hour
		s = s[i+1:]
	}
	if s == "" {
		return days, nil
	}
	rest, err := time.ParseDuration(s)
	if err != nil || rest < 0 {
		return 0, fmt.Errorf("%q is not a duration such as 30d, 12h or 1d12h", s)
	}
	return days + rest, nil
}

func formatDuration(d time.Duration) string {
	if d > 0 && d%(24*time.Hour) == 0 {
		return strconv.Itoa(int(d/(24*time.Hour))) + "d"
	}
	return d.String()
}

func lookupEnv(name string) string { return os.Getenv(name) }

// prefixesValue is a flag holding address ranges, comma-separated: CIDR
// ranges ("10.0.0.0/8") or single addresses ("192.0.2.7").
type prefixesValue []netip.Prefix

func (p *prefixesValue) String() string {
	s := make([]string, len(*p))
	for i, v := range *p {
		s[i] = v.String()
	}
	return strings.Join(s, ",")
}

func (p *prefixesValue) Set(s string) error {
	var out []netip.Prefix
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if pre, err := netip.ParsePrefix(f); err == nil {
			out = append(out, pre.Masked())
			continue
		}
		addr, err := netip.ParseAddr(f)
		if err != nil {
			return fmt.Errorf("%q is neither an address range such as 10.0.0.0/8 nor an address such as 192.0.2.7", f)
		}
		out = append(out, netip.PrefixFrom(addr.Unmap(), addr.Unmap().BitLen()))
	}
	*p = out
	return nil
}
