// MAPI `spotVMOptions` → CAPZ `spotVMOptions`. Machine API asks Azure to deallocate an evicted
// Spot VM; CAPZ defaults the policy per machine, so it is written out in the template.
import { canonicalDecimalQuantity } from './quantity.js';
import { describeValue, type ConversionReport, type ObjectReader } from '../common/field-reader.js';
import { quote } from '../common/quote.js';

export interface CapzSpotVMOptions {
  maxPrice?: string;
  evictionPolicy: 'Deallocate' | 'Delete';
}

export function convertSpotVMOptions(
  spec: ObjectReader,
  ephemeralOsDisk: boolean,
  report: ConversionReport,
): CapzSpotVMOptions | undefined {
  const spot = spec.object('spotVMOptions');
  if (spot === undefined) return undefined;
  const maxPrice = readMaxPrice(spot, report);
  spot.finish();
  const options: CapzSpotVMOptions = { evictionPolicy: 'Deallocate' };
  if (maxPrice !== undefined) options.maxPrice = maxPrice;
  if (ephemeralOsDisk) {
    // Azure cannot deallocate a VM whose OS disk lives on the host; it only deletes it.
    options.evictionPolicy = 'Delete';
    report.warn(
      `${spot.path} asks for Spot VMs with an ephemeral OS disk, which Azure can only delete ` +
        'on eviction, not deallocate; these Cluster API machines use the Delete eviction policy ' +
        'where other Spot machines use Deallocate.',
    );
  }
  return options;
}

function readMaxPrice(spot: ObjectReader, report: ConversionReport): string | undefined {
  const value = spot.raw('maxPrice');
  if (value === undefined) return undefined;
  const path = spot.pathOf('maxPrice');
  if (typeof value !== 'string' && typeof value !== 'number') {
    report.error(
      path,
      `must be a price such as "0.05" or -1, but is ${describeValue(value)}; fix it or remove it to cap at the on-demand price.`,
    );
    return undefined;
  }
  const canonical = canonicalDecimalQuantity(value);
  if (!canonical.ok) {
    report.error(
      path,
      `is ${quote(value)}, which ${canonical.problem}; write the price in US dollars per ` +
        'hour such as "0.05", or -1 to cap at the on-demand price.',
    );
    return undefined;
  }
  return canonical.value;
}
