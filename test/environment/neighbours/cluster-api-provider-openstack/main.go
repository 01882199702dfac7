// The admission webhooks of Cluster API Provider OpenStack (sigs.k8s.io/cluster-api-provider-openstack,
// package pkg/webhooks) for the local control plane: OpenStackMachineTemplate, OpenStackMachine,
// OpenStackCluster and OpenStackClusterTemplate, served on 127.0.0.1 with a CA of our own and
// registered from the module's config/webhook/manifests.yaml. No OpenStack controllers: stand-ins
// put and take CAPO's OpenStackMachine and OpenStackServer finalizers as its controllers do
// (serving.ProviderFinalizer).
package main

import (
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	infrav1alpha1 "sigs.k8s.io/cluster-api-provider-openstack/api/v1alpha1"
	infrav1 "sigs.k8s.io/cluster-api-provider-openstack/api/v1beta1"
	"sigs.k8s.io/cluster-api-provider-openstack/pkg/webhooks"

	"mapi-capi-sync/test/environment/neighbours/serving"
)

func main() {
	serving.WebhookOnly{
		Name:        "cluster-api-provider-openstack",
		AddToScheme: []func(*runtime.Scheme) error{infrav1.AddToScheme},
		Webhooks: map[string]func(manager.Manager) error{
			"OpenStackMachineTemplate": webhooks.SetupOpenStackMachineTemplateWebhook,
			"OpenStackMachine":         webhooks.SetupOpenStackMachineWebhook,
			"OpenStackCluster":         webhooks.SetupOpenStackClusterWebhook,
			"OpenStackClusterTemplate": webhooks.SetupOpenStackClusterTemplateWebhook,
		},
		StandIns: []func(manager.Manager) error{
			serving.ProviderFinalizer{Kind: infrav1.SchemeGroupVersion.WithKind("OpenStackMachine"), Finalizer: infrav1.MachineFinalizer, InfrastructureMachine: true}.SetupWithManager,
			serving.ProviderFinalizer{Kind: infrav1alpha1.SchemeGroupVersion.WithKind("OpenStackServer"), Finalizer: infrav1alpha1.OpenStackServerFinalizer}.SetupWithManager,
		},
	}.Main()
}
