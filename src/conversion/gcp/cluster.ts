// What the Infrastructure object says about a GCP cluster, read the same way in both directions.
import type { Infrastructure } from '../../api/types.js';

export interface ClusterFacts {
  infrastructureName?: string;
  region?: string;
  projectID?: string;
}

export function clusterFacts(infrastructure: Infrastructure): ClusterFacts {
  const status = infrastructure.status;
  const gcp = status?.platformStatus?.gcp;
  const facts: ClusterFacts = {};
  // Empty strings are as good as none.
  if (status?.infrastructureName) facts.infrastructureName = status.infrastructureName;
  if (gcp?.region) facts.region = gcp.region;
  if (gcp?.projectID) facts.projectID = gcp.projectID;
  return facts;
}

/** The network the installer creates for the cluster, which CAPG's GCPCluster also uses. */
export function installerNetwork(cluster: ClusterFacts): string | undefined {
  return cluster.infrastructureName && `${cluster.infrastructureName}-network`;
}
