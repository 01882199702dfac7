// MAPI spot / market type / capacity reservation → the same CAPA fields. The fields map one to
// one, but CAPA's CRD rejects some combinations, so contradictions are reported here with the
// MAPI field path instead of surfacing later as a failed template write.
import type { ConversionReport, ObjectReader } from '../common/field-reader.js';
import { quote } from '../common/quote.js';

export interface ConvertedMarketOptions {
  spotMarketOptions?: { maxPrice?: string };
  marketType?: MarketType;
  capacityReservationId?: string;
}

const MARKET_TYPES = ['OnDemand', 'Spot', 'CapacityBlock'] as const;
type MarketType = (typeof MARKET_TYPES)[number];
// The format CAPA documents for maxPrice (US dollars per hour).
const PRICE = /^[0-9]+(\.[0-9]+)?$/;

export function convertMarketOptions(
  spec: ObjectReader,
  report: ConversionReport,
): ConvertedMarketOptions {
  const converted: ConvertedMarketOptions = {};
  const spot = spec.object('spotMarketOptions');
  if (spot !== undefined) {
    // An empty spotMarketOptions is meaningful: a Spot instance at the on-demand price cap.
    converted.spotMarketOptions = {};
    const maxPrice = spot.string('maxPrice');
    spot.finish();
    if (maxPrice !== undefined && !PRICE.test(maxPrice)) {
      report.error(
        spot.pathOf('maxPrice'),
        `is ${quote(maxPrice)}, but must be a price in US dollars per hour such as "0.25"; ` +
          'fix it or remove it to cap at the on-demand price.',
      );
    } else if (maxPrice !== undefined) {
      converted.spotMarketOptions.maxPrice = maxPrice;
    }
  }
  const marketType = spec.enumeration('marketType', MARKET_TYPES);
  if (marketType !== undefined) converted.marketType = marketType;
  const capacityReservationId = spec.string('capacityReservationId');
  if (capacityReservationId !== undefined) converted.capacityReservationId = capacityReservationId;

  const isSpot = spot !== undefined || marketType === 'Spot';
  if (capacityReservationId !== undefined && isSpot) {
    report.error(
      spec.pathOf('capacityReservationId'),
      'cannot be combined with Spot instances (spotMarketOptions or marketType Spot); remove one of them.',
    );
  }
  if (spot !== undefined && marketType !== undefined && marketType !== 'Spot') {
    report.error(
      spec.pathOf('marketType'),
      `is ${marketType}, which contradicts spotMarketOptions; set marketType to Spot or remove spotMarketOptions.`,
    );
  }
  if (marketType === 'CapacityBlock' && capacityReservationId === undefined) {
    report.error(
      spec.pathOf('marketType'),
      'is CapacityBlock, which needs capacityReservationId; set the ID of the capacity block reservation.',
    );
  }
  return converted;
}
