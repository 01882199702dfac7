package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/uuid"
	machinev1 "github.com/openshift/api/machine/v1"
	machinev1beta1 "github.com/openshift/api/machine/v1beta1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The providerIDs the MAPI providers write, and the CAPI providers parse, per providerSpec kind:
//
//	AWSMachineProviderConfig     aws:///<availability zone>/i-<17 hex digits>
//	OpenstackProviderSpec        openstack:///<server UUID>
//	GCPMachineProviderSpec       gce://<project>/<zone>/<instance name = Machine name>
//	AzureMachineProviderSpec     azure:///subscriptions/<subscription>/resourceGroups/<group>/providers/Microsoft.Compute/virtualMachines/<VM name = Machine name>
//	PowerVSMachineProviderConfig ibmpowervs://<region>/<zone>/<service instance>/<instance UUID>
//	VSphereMachineProviderSpec   vsphere://<VM BIOS UUID> (machine-api-operator's own vSphere
//	                             provider, pkg/controller/vsphere convertUUIDToProviderID: lower case)
//
// Values a real provider reads from its credentials or the cloud come from the Infrastructure
// `cluster` when it has them, else from fixed stand-ins; instance IDs come from a hash of the uid.
const (
	// The subscription is in the Azure credentials, which the local control plane has none of.
	standInAzureSubscription = "00000000-0000-0000-0000-000000000000"
	standInGCPProject        = "stand-in-project"
	standInPowerVSRegion     = "dal"
	standInPowerVSZone       = "dal10"
)

// Seeds a UUID derived from a Machine's uid, so that the same Machine always gets the same IDs.
var standInNamespace = uuid.MustParse("6f1c3a52-8f0e-4f4b-9d55-0d7d3c1f9a10")

func providerIDFor(machine *machinev1beta1.Machine, infra *unstructured.Unstructured) string {
	raw := []byte(nil)
	if machine.Spec.ProviderSpec.Value != nil {
		raw = machine.Spec.ProviderSpec.Value.Raw
	}
	var meta struct {
		Kind string `json:"kind"`
	}
	_ = json.Unmarshal(raw, &meta)
	switch meta.Kind {
	case "AWSMachineProviderConfig":
		var spec machinev1beta1.AWSMachineProviderConfig
		if json.Unmarshal(raw, &spec) == nil {
			zone := spec.Placement.AvailabilityZone
			if zone == "" && spec.Placement.Region != "" {
				zone = spec.Placement.Region + "a" // AWS picks a zone of the region
			}
			return fmt.Sprintf("aws:///%s/i-%s", zone, uidHash(machine.UID)[:17])
		}
	case "OpenstackProviderSpec":
		return "openstack:///" + uidUUID(machine.UID, "server")
	case "GCPMachineProviderSpec":
		var spec machinev1beta1.GCPMachineProviderSpec
		if json.Unmarshal(raw, &spec) == nil {
			project := firstNonEmpty(spec.ProjectID,
				infraString(infra, "status", "platformStatus", "gcp", "projectID"), standInGCPProject)
			zone := firstNonEmpty(spec.Zone, "stand-in-zone")
			return fmt.Sprintf("gce://%s/%s/%s", project, zone, machine.Name)
		}
	case "AzureMachineProviderSpec":
		var spec machinev1beta1.AzureMachineProviderSpec
		if json.Unmarshal(raw, &spec) == nil {
			group := firstNonEmpty(spec.ResourceGroup,
				infraString(infra, "status", "platformStatus", "azure", "resourceGroupName"),
				machine.Labels[machinev1beta1.MachineClusterIDLabel]+"-rg")
			return fmt.Sprintf("azure:///subscriptions/%s/resourceGroups/%s/providers/Microsoft.Compute/virtualMachines/%s",
				standInAzureSubscription, group, machine.Name)
		}
	case "PowerVSMachineProviderConfig":
		var spec machinev1.PowerVSMachineProviderConfig
		if json.Unmarshal(raw, &spec) == nil {
			region := firstNonEmpty(infraString(infra, "status", "platformStatus", "powervs", "region"), standInPowerVSRegion)
			zone := firstNonEmpty(infraString(infra, "status", "platformStatus", "powervs", "zone"), standInPowerVSZone)
			return fmt.Sprintf("ibmpowervs://%s/%s/%s/%s", region, zone,
				powerVSServiceInstance(spec.ServiceInstance, machine.UID), uidUUID(machine.UID, "instance"))
		}
	case "VSphereMachineProviderSpec":
		return "vsphere://" + uidUUID(machine.UID, "bios")
	}
	klog.Infof("%v: providerSpec kind %q is not one the stand-in knows; giving a generic providerID", machine.Name, meta.Kind)
	return "stand-in:///" + string(machine.UID)
}

// powerVSServiceInstance is the workspace named in the providerSpec: its ID, else its name (a real
// provider resolves the name to the ID); a regular expression or a value with a slash, which
// would break the providerID's shape, gets a UUID instead.
func powerVSServiceInstance(ref machinev1.PowerVSResource, uid types.UID) string {
	for _, value := range []*string{ref.ID, ref.Name} {
		if value != nil && *value != "" && !strings.Contains(*value, "/") {
			return *value
		}
	}
	return uidUUID(uid, "service-instance")
}

// internalIPFor is an address in 10.0.0.0/8 from the uid's hash, never .0 or .255.
func internalIPFor(uid types.UID) string {
	sum := sha256.Sum256([]byte("address/" + string(uid)))
	return fmt.Sprintf("10.%d.%d.%d", sum[0], sum[1], 1+int(sum[2])%254)
}

func uidHash(uid types.UID) string {
	sum := sha256.Sum256([]byte(uid))
	return hex.EncodeToString(sum[:])
}

func uidUUID(uid types.UID, purpose string) string {
	return uuid.NewSHA1(standInNamespace, []byte(purpose+"/"+string(uid))).String()
}

func firstNonEmpty(values ...string) string {
	for _, value := range values {
		if value != "" {
			return value
		}
	}
	return ""
}

// readInfrastructure is the Infrastructure `cluster`, or nil when there is none (or no such CRD).
func readInfrastructure(ctx context.Context, reader client.Reader) *unstructured.Unstructured {
	infra := &unstructured.Unstructured{}
	infra.SetAPIVersion("config.openshift.io/v1")
	infra.SetKind("Infrastructure")
	if err := reader.Get(ctx, client.ObjectKey{Name: "cluster"}, infra); err != nil {
		return nil
	}
	return infra
}

func infraString(infra *unstructured.Unstructured, path ...string) string {
	if infra == nil {
		return ""
	}
	value, _, _ := unstructured.NestedString(infra.Object, path...)
	return value
}
