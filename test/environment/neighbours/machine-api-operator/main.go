// machine-api-operator's MachineSet and Machine controllers (github.com/openshift/machine-api-operator,
// pkg/controller/machineset and pkg/controller/machine, the latter with its drain controller) and
// its MachineHealthCheck controller (pkg/controller/machinehealthcheck, which deletes the Machine
// of an unhealthy node whatever its authority) for the local control plane, with the
// MachineAPIMigration feature gate on, watching every namespace.
// With the gate each copies spec.authoritativeAPI into an empty status.authoritativeAPI and sets
// the MAPI Paused condition from status.authoritativeAPI (True under ClusterAPI or Migrating);
// while the Machine API is authoritative they go on as in a cluster: Machines for a MachineSet's
// replicas and its replica counts; a Machine's finalizer machine.machine.openshift.io (kept while
// the Machine is paused), its phase, and its instance through the actuator. Nothing here may
// reach a cloud, so the actuator is a stand-in (actuator.go) that takes Machines to Provisioned.
//
// The same binary serves machine-api-operator's MachineSet and Machine admission webhooks
// (pkg/webhooks: defaulting and validation), on 127.0.0.1 with a CA of our own, registered from
// the module's own webhook configurations (webhooks.go), and built anew whenever the
// Infrastructure or DNS `cluster` changes. /readyz passes once the controllers' caches are synced,
// the webhooks are built for the current Infrastructure and their configurations registered.
package main

import (
	"flag"
	"fmt"
	"os"

	apifeatures "github.com/openshift/api/features"
	machinev1 "github.com/openshift/api/machine/v1beta1"
	"github.com/openshift/machine-api-operator/pkg/controller/machine"
	"github.com/openshift/machine-api-operator/pkg/controller/machinehealthcheck"
	"github.com/openshift/machine-api-operator/pkg/controller/machineset"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/component-base/featuregate"
	"k8s.io/klog/v2"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"mapi-capi-sync/test/environment/neighbours/serving"
)

type flags struct {
	probeAddr       string
	webhookPort     int
	certDir         string
	prefix          string
	unadmittedLabel string
}

func main() {
	var f flags
	flag.StringVar(&f.probeAddr, "health-probe-bind-address", "127.0.0.1:0", "/healthz and /readyz")
	flag.IntVar(&f.webhookPort, "webhook-port", 9443, "port of the webhook server on 127.0.0.1")
	flag.StringVar(&f.certDir, "cert-dir", "", "where the CA and serving certificate are written")
	flag.StringVar(&f.prefix, "webhook-configuration-prefix", "machine-api-operator", "name prefix of the registered webhook configurations")
	flag.StringVar(&f.unadmittedLabel, "unadmitted-label", "",
		`objects carrying this label set to "true" are never sent to the webhooks (objectSelector)`)
	klog.InitFlags(nil)
	flag.Parse()
	ctrl.SetLogger(klog.Background())
	if err := run(f); err != nil {
		klog.ErrorS(err, "machine-api-operator controllers and webhooks failed")
		os.Exit(1)
	}
}

func run(f flags) error {
	if f.certDir == "" {
		return fmt.Errorf("--cert-dir is required")
	}
	// The feature set that enables MachineAPIMigration is TechPreviewNoUpgrade; the two vSphere
	// gates, read by the Machine validator, are on in it too (github.com/openshift/api/features).
	gate := featuregate.NewFeatureGate()
	if err := gate.Add(map[featuregate.Feature]featuregate.FeatureSpec{
		featuregate.Feature(apifeatures.FeatureGateMachineAPIMigration):     {Default: true, PreRelease: featuregate.Alpha},
		featuregate.Feature(apifeatures.FeatureGateVSphereMultiDisk):        {Default: true, PreRelease: featuregate.Alpha},
		featuregate.Feature(apifeatures.FeatureGateVSphereHostVMGroupZonal): {Default: true, PreRelease: featuregate.Alpha},
	}); err != nil {
		return err
	}
	ca, err := serving.Certificates(f.certDir)
	if err != nil {
		return fmt.Errorf("writing the webhook certificates: %w", err)
	}
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, machinev1.Install} {
		if err := add(scheme); err != nil {
			return err
		}
	}
	webhookServer := serving.NewServer(f.webhookPort, f.certDir)
	options := manager.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: f.probeAddr,
		WebhookServer:          webhookServer,
	}
	mgr, err := manager.New(ctrl.GetConfigOrDie(), options)
	if err != nil {
		return err
	}
	if err := machineset.Add(mgr, options, gate); err != nil {
		return fmt.Errorf("MachineSet controller: %w", err)
	}
	actuator := newStandInActuator(mgr.GetClient(), mgr.GetAPIReader())
	if err := machine.AddWithActuator(mgr, actuator, gate); err != nil {
		return fmt.Errorf("Machine controller: %w", err)
	}
	if err := machinehealthcheck.Add(mgr, options); err != nil {
		return fmt.Errorf("MachineHealthCheck controller: %w", err)
	}
	admission := newFollowingInfrastructure(mgr.GetAPIReader(), mgr.GetClient(), gate)
	// Through the manager: that adds the webhook server to what it starts.
	for _, path := range webhookPaths {
		mgr.GetWebhookServer().Register(path, admission.Handler(path))
	}
	registration, err := registration(webhookServer, f.webhookPort, ca, f.prefix, f.unadmittedLabel)
	if err != nil {
		return err
	}
	if err := registration.AddTo(mgr); err != nil {
		return err
	}
	if err := mgr.AddHealthzCheck("ping", healthz.Ping); err != nil {
		return err
	}
	if err := mgr.AddHealthzCheck("webhook", webhookServer.StartedChecker()); err != nil {
		return err
	}
	for name, check := range map[string]healthz.Checker{
		"caches":         serving.CachesSynced(mgr),
		"webhook":        webhookServer.StartedChecker(),
		"webhooks-built": admission.Checker,
	} {
		if err := mgr.AddReadyzCheck(name, check); err != nil {
			return err
		}
	}
	return mgr.Start(ctrl.SetupSignalHandler())
}
