package serving

import (
	"flag"
	"fmt"
	"os"
	"sort"

	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/klog/v2"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

// WebhookOnly is the whole main of a neighbour that serves admission webhooks (an infrastructure
// provider without its controllers: nothing here may reach a cloud), with stand-ins where a
// controller's behaviour matters (ProviderFinalizer).
type WebhookOnly struct {
	// Name prefixes the registered webhook configurations.
	Name string
	// AddToScheme registers the provider's API types (client-go's are always registered).
	AddToScheme []func(*runtime.Scheme) error
	// Webhooks sets up each webhook on the manager, by kind.
	Webhooks map[string]func(manager.Manager) error
	// StandIns sets up the stand-ins for the provider's controllers on the manager.
	StandIns []func(manager.Manager) error
	// BeforeStart runs after the flags are parsed (e.g. to apply a --feature-gates flag of the caller's).
	BeforeStart func() error
}

// Main parses the flags, writes the certificates, serves the webhooks on 127.0.0.1, registers
// their configurations and runs until SIGTERM. /readyz passes once the configurations are
// registered. Flags: --kubeconfig, --webhook-port, --cert-dir, --webhook-manifests,
// --webhook-configuration-prefix, --health-probe-bind-address, klog's -v.
func (w WebhookOnly) Main() {
	webhookPort := flag.Int("webhook-port", 9443, "port of the webhook server on 127.0.0.1")
	certDir := flag.String("cert-dir", "", "where the CA and serving certificate are written")
	manifests := flag.String("webhook-manifests", "", "the module's config/webhook/manifests.yaml")
	prefix := flag.String("webhook-configuration-prefix", w.Name, "name prefix of the registered webhook configurations")
	probeAddr := flag.String("health-probe-bind-address", "127.0.0.1:0", "/healthz and /readyz")
	klog.InitFlags(nil)
	flag.Parse()
	ctrl.SetLogger(klog.Background())
	if err := w.run(*webhookPort, *certDir, *manifests, *prefix, *probeAddr); err != nil {
		klog.ErrorS(err, "webhook server failed", "name", w.Name)
		os.Exit(1)
	}
}

func (w WebhookOnly) run(webhookPort int, certDir, manifests, prefix, probeAddr string) error {
	if certDir == "" || manifests == "" {
		return fmt.Errorf("--cert-dir and --webhook-manifests are required")
	}
	if w.BeforeStart != nil {
		if err := w.BeforeStart(); err != nil {
			return err
		}
	}
	ca, err := Certificates(certDir)
	if err != nil {
		return fmt.Errorf("writing the webhook certificates: %w", err)
	}
	scheme := runtime.NewScheme()
	for _, add := range append([]func(*runtime.Scheme) error{clientgoscheme.AddToScheme}, w.AddToScheme...) {
		if err := add(scheme); err != nil {
			return err
		}
	}
	server := NewServer(webhookPort, certDir)
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: probeAddr,
		WebhookServer:          server,
	})
	if err != nil {
		return err
	}
	kinds := make([]string, 0, len(w.Webhooks))
	for kind := range w.Webhooks {
		kinds = append(kinds, kind)
	}
	sort.Strings(kinds)
	for _, kind := range kinds {
		if err := w.Webhooks[kind](mgr); err != nil {
			return fmt.Errorf("%s webhook: %w", kind, err)
		}
	}
	for _, setup := range w.StandIns {
		if err := setup(mgr); err != nil {
			return err
		}
	}
	registration := &Registration{Manifests: manifests, Prefix: prefix, CABundle: ca, Server: server, Port: webhookPort}
	if err := registration.AddTo(mgr); err != nil {
		return err
	}
	if err := mgr.AddHealthzCheck("webhook", server.StartedChecker()); err != nil {
		return err
	}
	if err := mgr.AddReadyzCheck("webhook", server.StartedChecker()); err != nil {
		return err
	}
	if err := mgr.AddHealthzCheck("ping", healthz.Ping); err != nil {
		return err
	}
	return mgr.Start(ctrl.SetupSignalHandler())
}
