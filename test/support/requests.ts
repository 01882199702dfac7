// Requests as one user (a person, a controller), answering with the API server's refusal instead
// of throwing: what admission tests compare.
import type { KubeConfig } from '@kubernetes/client-node';
import { expect } from 'chai';
import { eventually } from './eventually.js';
import { objectsFor } from './kube-client.js';

interface Located {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
}

/** The API server's message of a failed request. */
export function refusal(err: unknown): string {
  const body = (err as { body?: unknown }).body;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  try {
    return (JSON.parse(text) as { message?: string }).message ?? text;
  } catch {
    return String(text ?? err);
  }
}

/** Creates `object` as the user of `kc`: undefined when admitted, else the server's message. */
export async function createAs(
  kc: KubeConfig,
  object: Located,
  dryRun = false,
): Promise<string | undefined> {
  const client = objectsFor(kc);
  try {
    await client.create(await client.locate(object), object, { dryRun });
    return undefined;
  } catch (err) {
    return refusal(err);
  } finally {
    client.close();
  }
}

/**
 * A merge patch as the user of `kc` (the whole body, with the object's apiVersion, kind and
 * name): undefined when admitted, else the server's message.
 */
export async function mergePatchAs(
  kc: KubeConfig,
  object: { apiVersion: string; kind: string; namespace: string; name: string },
  body: Record<string, unknown>,
  dryRun = false,
): Promise<string | undefined> {
  const client = objectsFor(kc);
  try {
    const patch = {
      ...body,
      apiVersion: object.apiVersion,
      kind: object.kind,
      metadata: {
        ...(body.metadata as object | undefined),
        name: object.name,
        namespace: object.namespace,
      },
    };
    await client.patch(await client.locate(patch), { type: 'merge', body: patch }, { dryRun });
    return undefined;
  } catch (err) {
    return refusal(err);
  } finally {
    client.close();
  }
}

/**
 * The refusal of a request once the policies it meets are in effect (the API server's admission
 * plugin sees a new policy a moment after it is created, and one it cannot configure yet says so).
 */
export async function refusedOnceInEffect(
  request: () => Promise<string | undefined>,
): Promise<string> {
  return eventually(async () => {
    const message = await request();
    expect(message, 'admitted').to.be.a('string');
    expect(message).not.to.contain('failed to configure');
    return message!;
  });
}
