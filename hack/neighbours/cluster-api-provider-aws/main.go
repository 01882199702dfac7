// The admission webhooks of Cluster API Provider AWS (sigs.k8s.io/cluster-api-provider-aws/v2,
// package webhooks) for the local control plane: AWSMachineTemplate (its spec is immutable),
// AWSMachine, AWSCluster and AWSClusterTemplate, served on 127.0.0.1 with a CA of our own and
// registered from the module's config/webhook/manifests.yaml. No AWS controllers: nothing here
// may reach a cloud. /readyz passes once the webhook configurations are registered.
package main

import (
	"flag"
	"fmt"
	"os"

	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/klog/v2"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	infrav1beta1 "sigs.k8s.io/cluster-api-provider-aws/v2/api/v1beta1"
	infrav1 "sigs.k8s.io/cluster-api-provider-aws/v2/api/v1beta2"
	"sigs.k8s.io/cluster-api-provider-aws/v2/feature"
	"sigs.k8s.io/cluster-api-provider-aws/v2/webhooks"

	"mapi-capi-sync/hack/neighbours/serving"
)

func main() {
	webhookPort := flag.Int("webhook-port", 9443, "port of the webhook server on 127.0.0.1")
	certDir := flag.String("cert-dir", "", "where the CA and serving certificate are written")
	manifests := flag.String("webhook-manifests", "", "the module's config/webhook/manifests.yaml")
	prefix := flag.String("webhook-configuration-prefix", "cluster-api-provider-aws", "name prefix of the registered webhook configurations")
	probeAddr := flag.String("health-probe-bind-address", "127.0.0.1:0", "/healthz and /readyz")
	gates := flag.String("feature-gates", "", "CAPA feature gates, e.g. BootstrapFormatIgnition=true")
	klog.InitFlags(nil)
	flag.Parse()
	ctrl.SetLogger(klog.Background())
	if err := run(*webhookPort, *certDir, *manifests, *prefix, *probeAddr, *gates); err != nil {
		klog.ErrorS(err, "cluster-api-provider-aws webhooks failed")
		os.Exit(1)
	}
}

func run(webhookPort int, certDir, manifests, prefix, probeAddr, gates string) error {
	if certDir == "" || manifests == "" {
		return fmt.Errorf("--cert-dir and --webhook-manifests are required")
	}
	if gates != "" {
		if err := feature.MutableGates.Set(gates); err != nil {
			return fmt.Errorf("--feature-gates: %w", err)
		}
	}
	ca, err := serving.Certificates(certDir)
	if err != nil {
		return fmt.Errorf("writing the webhook certificates: %w", err)
	}
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, infrav1.AddToScheme, infrav1beta1.AddToScheme} {
		if err := add(scheme); err != nil {
			return err
		}
	}
	webhookServer := serving.NewServer(webhookPort, certDir)
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: probeAddr,
		WebhookServer:          webhookServer,
	})
	if err != nil {
		return err
	}
	for name, setup := range map[string]func() error{
		"AWSMachineTemplate": func() error { return (&webhooks.AWSMachineTemplate{}).SetupWebhookWithManager(mgr) },
		"AWSMachine":         func() error { return (&webhooks.AWSMachine{}).SetupWebhookWithManager(mgr) },
		"AWSCluster":         func() error { return (&webhooks.AWSCluster{}).SetupWebhookWithManager(mgr) },
		"AWSClusterTemplate": func() error { return (&webhooks.AWSClusterTemplate{}).SetupWebhookWithManager(mgr) },
	} {
		if err := setup(); err != nil {
			return fmt.Errorf("%s webhook: %w", name, err)
		}
	}
	registration := &serving.Registration{
		Manifests: manifests, Prefix: prefix, CABundle: ca, Server: webhookServer, Port: webhookPort,
	}
	if err := registration.AddTo(mgr); err != nil {
		return err
	}
	if err := mgr.AddHealthzCheck("webhook", webhookServer.StartedChecker()); err != nil {
		return err
	}
	if err := mgr.AddReadyzCheck("webhook", webhookServer.StartedChecker()); err != nil {
		return err
	}
	if err := mgr.AddHealthzCheck("ping", healthz.Ping); err != nil {
		return err
	}
	return mgr.Start(ctrl.SetupSignalHandler())
}
