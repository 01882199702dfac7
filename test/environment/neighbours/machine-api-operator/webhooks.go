package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/openshift/machine-api-operator/pkg/webhooks"
	admissionv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/component-base/featuregate"
	"k8s.io/klog/v2"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"mapi-capi-sync/test/environment/neighbours/serving"
)

// The paths machine-api-operator serves its four webhooks at (pkg/webhooks, config.go).
var webhookPaths = []string{
	webhooks.DefaultMachineMutatingHookPath,
	webhooks.DefaultMachineValidatingHookPath,
	webhooks.DefaultMachineSetMutatingHookPath,
	webhooks.DefaultMachineSetValidatingHookPath,
}

// followingInfrastructure serves machine-api-operator's MachineSet and Machine admission webhooks,
// each built by the module's own constructor (NewMachineDefaulter, NewMachineValidator,
// NewMachineSetDefaulter, NewMachineSetValidator). Those constructors read the Infrastructure and
// DNS `cluster` once, and choose the platform's defaulting and validation from them; in a cluster
// the platform never changes under a running pod. The tests switch the platform, so the webhooks
// are built anew whenever either object has changed, as a machine-api-operator pod restarted on
// the change would build them.
//
// The change is noticed before each review, by reading both objects' metadata from the API
// server (loopback, no cache): a review that follows a change of platform always meets the new
// platform, where a watch would leave a window in which it meets the old one.
//
// When the webhooks cannot be built (no Infrastructure or DNS `cluster`, an Infrastructure without
// status.platformStatus) the reviews are answered 503, as by a machine-api-operator that cannot
// start: the API server applies the webhooks' failurePolicy (Ignore, upstream's choice).
type followingInfrastructure struct {
	// reader reads without a cache.
	reader client.Reader
	// build constructs the webhooks by path.
	build func() (map[string]http.Handler, error)

	mu       sync.Mutex
	built    bool
	versions string // the resourceVersions of the Infrastructure and DNS the webhooks were built from
	handlers map[string]http.Handler
	err      error
}

func newFollowingInfrastructure(reader client.Reader, c client.Client, gate featuregate.MutableFeatureGate) *followingInfrastructure {
	return &followingInfrastructure{
		reader: reader,
		build: func() (map[string]http.Handler, error) {
			machineDefaulter, err := webhooks.NewMachineDefaulter()
			if err != nil {
				return nil, fmt.Errorf("Machine defaulter: %w", err)
			}
			machineValidator, err := webhooks.NewMachineValidator(c, gate)
			if err != nil {
				return nil, fmt.Errorf("Machine validator: %w", err)
			}
			machineSetDefaulter, err := webhooks.NewMachineSetDefaulter()
			if err != nil {
				return nil, fmt.Errorf("MachineSet defaulter: %w", err)
			}
			machineSetValidator, err := webhooks.NewMachineSetValidator(c, gate)
			if err != nil {
				return nil, fmt.Errorf("MachineSet validator: %w", err)
			}
			return map[string]http.Handler{
				webhooks.DefaultMachineMutatingHookPath:      machineDefaulter,
				webhooks.DefaultMachineValidatingHookPath:    machineValidator,
				webhooks.DefaultMachineSetMutatingHookPath:   machineSetDefaulter,
				webhooks.DefaultMachineSetValidatingHookPath: machineSetValidator,
			}, nil
		},
	}
}

// Handler serves the webhook at path with the webhooks of the current Infrastructure.
func (f *followingInfrastructure) Handler(path string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		handlers, err := f.current(r.Context())
		if err != nil {
			klog.V(2).InfoS("machine-api-operator webhooks unavailable", "path", path, "reason", err.Error())
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		handlers[path].ServeHTTP(w, r)
	})
}

// Checker is a readyz check: the webhooks are built for the current Infrastructure.
func (f *followingInfrastructure) Checker(r *http.Request) error {
	_, err := f.current(r.Context())
	return err
}

func (f *followingInfrastructure) current(ctx context.Context) (map[string]http.Handler, error) {
	versions, err := f.clusterVersions(ctx)
	if err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.built || versions != f.versions {
		f.handlers, f.err = f.buildSafely()
		f.built, f.versions = true, versions
		if f.err != nil {
			klog.InfoS("machine-api-operator webhooks cannot be built; reviews are answered 503 (failurePolicy applies)",
				"versions", versions, "reason", f.err.Error())
		} else {
			klog.InfoS("machine-api-operator webhooks built for the current Infrastructure and DNS", "versions", versions)
		}
	}
	return f.handlers, f.err
}

// buildSafely builds the webhooks; a constructor's panic (an Infrastructure without
// status.platformStatus) is an error, as a crashing pod is an absent webhook.
func (f *followingInfrastructure) buildSafely() (handlers map[string]http.Handler, err error) {
	defer func() {
		if recovered := recover(); recovered != nil {
			handlers, err = nil, fmt.Errorf("building the webhooks panicked: %v", recovered)
		}
	}()
	return f.build()
}

// clusterVersions names the Infrastructure and DNS `cluster` by resourceVersion ("absent" when
// not found); any other error is returned, and nothing is rebuilt.
func (f *followingInfrastructure) clusterVersions(ctx context.Context) (string, error) {
	versions := ""
	for _, kind := range []string{"Infrastructure", "DNS"} {
		object := &metav1.PartialObjectMetadata{}
		object.SetGroupVersionKind(schema.GroupVersionKind{Group: "config.openshift.io", Version: "v1", Kind: kind})
		version := "absent"
		err := f.reader.Get(ctx, client.ObjectKey{Name: "cluster"}, object)
		switch {
		case err == nil:
			version = object.ResourceVersion
		case apierrors.IsNotFound(err):
		default:
			return "", fmt.Errorf("reading the %s `cluster`: %w", kind, err)
		}
		versions += kind + "=" + version + " "
	}
	return versions, nil
}

// registration registers machine-api-operator's own webhook configurations
// (NewMachineMutatingWebhookConfiguration, NewMachineValidatingWebhookConfiguration: failure policy,
// rules and paths as upstream sets them), each webhook pointed at this server and, when
// unadmittedLabel is set, given an objectSelector that leaves out the objects carrying that label
// set to "true".
func registration(server *serving.Recorder, port int, ca []byte, prefix, unadmittedLabel string) (*serving.Registration, error) {
	mutating := webhooks.NewMachineMutatingWebhookConfiguration()
	validating := webhooks.NewMachineValidatingWebhookConfiguration()
	if unadmittedLabel != "" {
		// An object carrying the label is one the webhooks never saw: created while they were
		// down or before they existed. The tests need such objects, as the failure policy
		// (Ignore) and upgrades leave them in a cluster, and the controller must report them.
		selector := &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{
			Key: unadmittedLabel, Operator: metav1.LabelSelectorOpNotIn, Values: []string{"true"},
		}}}
		for i := range mutating.Webhooks {
			mutating.Webhooks[i].ObjectSelector = selector.DeepCopy()
		}
		for i := range validating.Webhooks {
			validating.Webhooks[i].ObjectSelector = selector.DeepCopy()
		}
	}
	for _, path := range webhookPaths {
		if !configured(path, mutating, validating) {
			return nil, errors.New("machine-api-operator's webhook configurations do not name " + path)
		}
	}
	return &serving.Registration{
		Mutating:   []admissionv1.MutatingWebhookConfiguration{*mutating},
		Validating: []admissionv1.ValidatingWebhookConfiguration{*validating},
		Prefix:     prefix,
		CABundle:   ca,
		Server:     server,
		Port:       port,
	}, nil
}

func configured(path string, mutating *admissionv1.MutatingWebhookConfiguration, validating *admissionv1.ValidatingWebhookConfiguration) bool {
	for _, hook := range mutating.Webhooks {
		if hook.ClientConfig.Service != nil && hook.ClientConfig.Service.Path != nil && *hook.ClientConfig.Service.Path == path {
			return true
		}
	}
	for _, hook := range validating.Webhooks {
		if hook.ClientConfig.Service != nil && hook.ClientConfig.Service.Path != nil && *hook.ClientConfig.Service.Path == path {
			return true
		}
	}
	return false
}
