// Cluster API core for the local control plane: the Cluster, Machine and MachineSet reconcilers
// (sigs.k8s.io/cluster-api/controllers) with a ClusterCache reading each workload cluster's
// kubeconfig from Secret <cluster>-kubeconfig, and the Cluster, Machine and MachineSet admission
// webhooks (sigs.k8s.io/cluster-api/webhooks) served on 127.0.0.1 with a CA of our own. The
// webhook configurations come from the module's config/webhook/manifests.yaml, restricted to the
// paths served here. /readyz passes once the webhooks are registered and the caches are synced.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/selection"
	"k8s.io/apimachinery/pkg/util/sets"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/klog/v2"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	clusterv1beta1 "sigs.k8s.io/cluster-api/api/core/v1beta1"
	clusterv1 "sigs.k8s.io/cluster-api/api/core/v1beta2"
	"sigs.k8s.io/cluster-api/api/core/v1beta2/index"
	"sigs.k8s.io/cluster-api/controllers"
	"sigs.k8s.io/cluster-api/controllers/clustercache"
	"sigs.k8s.io/cluster-api/feature"
	"sigs.k8s.io/cluster-api/webhooks"

	"mapi-capi-sync/test/environment/neighbours/serving"
)

func main() {
	webhookPort := flag.Int("webhook-port", 9443, "port of the webhook server on 127.0.0.1")
	certDir := flag.String("cert-dir", "", "where the CA and serving certificate are written")
	manifests := flag.String("webhook-manifests", "", "the module's config/webhook/manifests.yaml")
	prefix := flag.String("webhook-configuration-prefix", "cluster-api", "name prefix of the registered webhook configurations")
	probeAddr := flag.String("health-probe-bind-address", "127.0.0.1:0", "/healthz and /readyz")
	// Machine taints (spec.template.spec.taints) are accepted by the webhooks only with this gate.
	gates := flag.String("feature-gates", "MachineTaintPropagation=true", "Cluster API feature gates, as its manager takes them")
	klog.InitFlags(nil)
	flag.Parse()
	if err := feature.MutableGates.Set(*gates); err != nil {
		klog.ErrorS(err, "invalid --feature-gates")
		os.Exit(2)
	}
	ctrl.SetLogger(klog.Background())
	if err := run(*webhookPort, *certDir, *manifests, *prefix, *probeAddr); err != nil {
		klog.ErrorS(err, "cluster-api manager failed")
		os.Exit(1)
	}
}

func run(webhookPort int, certDir, manifests, prefix, probeAddr string) error {
	if certDir == "" || manifests == "" {
		return fmt.Errorf("--cert-dir and --webhook-manifests are required")
	}
	ca, err := serving.Certificates(certDir)
	if err != nil {
		return fmt.Errorf("writing the webhook certificates: %w", err)
	}

	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		clientgoscheme.AddToScheme, apiextensionsv1.AddToScheme, clusterv1.AddToScheme, clusterv1beta1.AddToScheme,
	} {
		if err := add(scheme); err != nil {
			return err
		}
	}

	// As in Cluster API's own manager: only Secrets labelled with a cluster name are cached (the
	// kubeconfig Secrets the ClusterCache reads); everything else reads Secrets from the server.
	clusterNameExists, err := labels.NewRequirement(clusterv1.ClusterNameLabel, selection.Exists, nil)
	if err != nil {
		return err
	}
	syncPeriod := 10 * time.Minute
	webhookServer := serving.NewServer(webhookPort, certDir)
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: probeAddr,
		WebhookServer:          webhookServer,
		Cache: cache.Options{
			SyncPeriod: &syncPeriod,
			ByObject: map[client.Object]cache.ByObject{
				&corev1.Secret{}: {Label: labels.NewSelector().Add(*clusterNameExists)},
			},
		},
		Client: client.Options{
			Cache: &client.CacheOptions{DisableFor: []client.Object{&corev1.ConfigMap{}, &corev1.Secret{}}},
		},
	})
	if err != nil {
		return err
	}
	ctx := ctrl.SetupSignalHandler()

	if err := index.AddDefaultIndexes(ctx, mgr); err != nil {
		return err
	}
	secretCachingClient, err := client.New(mgr.GetConfig(), client.Options{
		HTTPClient: mgr.GetHTTPClient(),
		Cache:      &client.CacheOptions{Reader: mgr.GetCache()},
	})
	if err != nil {
		return err
	}
	clusterCache, err := clustercache.SetupWithManager(ctx, mgr, clustercache.Options{
		SecretClient: secretCachingClient,
		Cache:        clustercache.CacheOptions{Indexes: []clustercache.CacheOptionsIndex{clustercache.NodeProviderIDIndex}},
		Client: clustercache.ClientOptions{
			UserAgent: "cluster-api-controller-manager",
			Cache: clustercache.ClientCacheOptions{
				DisableFor: []client.Object{&corev1.ConfigMap{}, &corev1.Secret{}, &corev1.Pod{}},
			},
		},
	}, controller.Options{MaxConcurrentReconciles: 10})
	if err != nil {
		return err
	}

	options := controller.Options{MaxConcurrentReconciles: 10}
	if err := (&controllers.ClusterReconciler{
		Client:                      mgr.GetClient(),
		APIReader:                   mgr.GetAPIReader(),
		ClusterCache:                clusterCache,
		RemoteConnectionGracePeriod: 50 * time.Second,
	}).SetupWithManager(ctx, mgr, options); err != nil {
		return fmt.Errorf("Cluster controller: %w", err)
	}
	if err := (&controllers.MachineReconciler{
		Client:                      mgr.GetClient(),
		APIReader:                   mgr.GetAPIReader(),
		ClusterCache:                clusterCache,
		RemoteConditionsGracePeriod: 5 * time.Minute,
	}).SetupWithManager(ctx, mgr, options); err != nil {
		return fmt.Errorf("Machine controller: %w", err)
	}
	if err := (&controllers.MachineSetReconciler{
		Client:          mgr.GetClient(),
		APIReader:       mgr.GetAPIReader(),
		ClusterCache:    clusterCache,
		PreflightChecks: sets.New(clusterv1.MachineSetPreflightCheckAll),
	}).SetupWithManager(ctx, mgr, options); err != nil {
		return fmt.Errorf("MachineSet controller: %w", err)
	}

	if err := (&webhooks.Cluster{Client: mgr.GetClient(), ClusterCacheReader: clusterCache}).SetupWebhookWithManager(mgr); err != nil {
		return fmt.Errorf("Cluster webhook: %w", err)
	}
	if err := (&webhooks.Machine{}).SetupWebhookWithManager(mgr); err != nil {
		return fmt.Errorf("Machine webhook: %w", err)
	}
	if err := (&webhooks.MachineSet{}).SetupWebhookWithManager(mgr); err != nil {
		return fmt.Errorf("MachineSet webhook: %w", err)
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
	if err := mgr.AddReadyzCheck("caches", serving.CachesSynced(mgr)); err != nil {
		return err
	}
	if err := mgr.AddHealthzCheck("ping", healthz.Ping); err != nil {
		return err
	}
	return mgr.Start(ctx)
}
