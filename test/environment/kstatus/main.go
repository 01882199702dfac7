// Command kstatus reads Kubernetes objects as JSON, one per line on stdin, and writes for each
// one JSON line on stdout with what kstatus (sigs.k8s.io/cli-utils/pkg/kstatus/status, the
// library Flux, Argo CD and `kubectl wait`-like tools judge readiness with) computes for it:
//
//	{"kind":"MachineSet","name":"a","namespace":"ns","generation":2,"status":"InProgress","message":"..."}
//
// status is one of Current, InProgress, Failed, Terminating, Unknown (status.Compute's own
// values), or Error when the line is not an object kstatus can read; message says why. One
// output line per non-empty input line, in order, flushed at once, so a caller can keep the
// process running and feed it objects as it samples them.
//
// What status.Compute does with a custom resource, in order (pkg/kstatus/status/generic.go and
// status.go): metadata.deletionTimestamp set → Terminating; status.observedGeneration present
// and ≠ metadata.generation → InProgress; a condition Reconciling=True → InProgress, Stalled=True
// → Failed; a condition Ready → Current when True, InProgress otherwise; none of these → Current.
// Other condition types (such as Synchronized) and other status fields (such as
// synchronizedGeneration) are not read.
//
// Exit codes: 0 at the end of the input, 1 when stdin or stdout fails, 2 on a bad command line.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"
)

type verdict struct {
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	Namespace  string `json:"namespace"`
	Generation int64  `json:"generation"`
	Status     string `json:"status"`
	Message    string `json:"message"`
}

// judge computes the verdict for one input line; a line kstatus cannot read gives status Error.
func judge(line []byte) verdict {
	object := &unstructured.Unstructured{}
	// UnmarshalJSON keeps integers as int64, which status.Compute requires of generations
	// (a plain encoding/json decode gives float64 and every object would fail).
	if err := object.UnmarshalJSON(line); err != nil {
		return verdict{Status: "Error", Message: fmt.Sprintf("not a Kubernetes object: %v", err)}
	}
	v := verdict{
		Kind:       object.GetKind(),
		Name:       object.GetName(),
		Namespace:  object.GetNamespace(),
		Generation: object.GetGeneration(),
	}
	result, err := status.Compute(object)
	if err != nil {
		v.Status, v.Message = "Error", err.Error()
		return v
	}
	v.Status, v.Message = string(result.Status), result.Message
	return v
}

func run(in io.Reader, out io.Writer) error {
	reader := bufio.NewReader(in)
	writer := bufio.NewWriter(out)
	encoder := json.NewEncoder(writer)
	for {
		line, readErr := reader.ReadBytes('\n')
		if readErr != nil && !errors.Is(readErr, io.EOF) {
			return fmt.Errorf("reading stdin: %w", readErr)
		}
		if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 {
			if err := encoder.Encode(judge(trimmed)); err != nil {
				return fmt.Errorf("writing stdout: %w", err)
			}
			if err := writer.Flush(); err != nil {
				return fmt.Errorf("writing stdout: %w", err)
			}
		}
		if errors.Is(readErr, io.EOF) {
			return nil
		}
	}
}

func main() {
	if len(os.Args) > 1 {
		fmt.Fprintln(os.Stderr, "usage: kstatus < objects.jsonl  (one JSON object per line in, one JSON verdict per line out)")
		os.Exit(2)
	}
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "kstatus:", err)
		os.Exit(1)
	}
}
