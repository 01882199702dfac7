// machine-api-operator's MachineSet and Machine controllers (github.com/openshift/machine-api-operator,
// pkg/controller/machineset and pkg/controller/machine, the latter with its drain controller) for
// the local control plane, with the MachineAPIMigration feature gate on, watching every namespace.
// With the gate each copies spec.authoritativeAPI into an empty status.authoritativeAPI and sets
// the MAPI Paused condition from status.authoritativeAPI (True under ClusterAPI or Migrating);
// while the Machine API is authoritative they go on as in a cluster: Machines for a MachineSet's
// replicas and its replica counts; a Machine's finalizer machine.machine.openshift.io (kept while
// the Machine is paused), its phase, and its instance through the actuator. Nothing here may
// reach a cloud, so the actuator is a stand-in (actuator.go) that takes Machines to Provisioned.
// /readyz passes once the controllers' caches are synced.
package main

import (
	"flag"
	"fmt"
	"os"

	apifeatures "github.com/openshift/api/features"
	machinev1 "github.com/openshift/api/machine/v1beta1"
	"github.com/openshift/machine-api-operator/pkg/controller/machine"
	"github.com/openshift/machine-api-operator/pkg/controller/machineset"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/component-base/featuregate"
	"k8s.io/klog/v2"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"mapi-capi-sync/hack/neighbours/serving"
)

func main() {
	probeAddr := flag.String("health-probe-bind-address", "127.0.0.1:0", "/healthz and /readyz")
	klog.InitFlags(nil)
	flag.Parse()
	ctrl.SetLogger(klog.Background())
	if err := run(*probeAddr); err != nil {
		klog.ErrorS(err, "machine-api-operator MachineSet and Machine controllers failed")
		os.Exit(1)
	}
}

func run(probeAddr string) error {
	gate := featuregate.NewFeatureGate()
	if err := gate.Add(map[featuregate.Feature]featuregate.FeatureSpec{
		featuregate.Feature(apifeatures.FeatureGateMachineAPIMigration): {Default: true, PreRelease: featuregate.Alpha},
	}); err != nil {
		return err
	}
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, machinev1.Install} {
		if err := add(scheme); err != nil {
			return err
		}
	}
	options := manager.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: probeAddr,
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
	if err := mgr.AddHealthzCheck("ping", healthz.Ping); err != nil {
		return err
	}
	if err := mgr.AddReadyzCheck("caches", serving.CachesSynced(mgr)); err != nil {
		return err
	}
	return mgr.Start(ctrl.SetupSignalHandler())
}
