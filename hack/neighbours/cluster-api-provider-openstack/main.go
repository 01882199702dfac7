// The admission webhooks of Cluster API Provider OpenStack (sigs.k8s.io/cluster-api-provider-openstack,
// package pkg/webhooks) for the local control plane: OpenStackMachineTemplate, OpenStackMachine,
// OpenStackCluster and OpenStackClusterTemplate, served on 127.0.0.1 with a CA of our own and
// registered from the module's config/webhook/manifests.yaml. No OpenStack controllers.
package main

import (
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	infrav1 "sigs.k8s.io/cluster-api-provider-openstack/api/v1beta1"
	"sigs.k8s.io/cluster-api-provider-openstack/pkg/webhooks"

	"mapi-capi-sync/hack/neighbours/serving"
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
	}.Main()
}
