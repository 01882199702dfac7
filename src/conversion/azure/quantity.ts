// Kubernetes resource quantities (here: the Spot maximum price) in the canonical form the
// CAPZ webhook writes back. The webhook decodes every AzureMachineTemplate into Go types, so a
// price sent as "0.05" is stored as "50m"; writing the canonical form ourselves keeps the
// stored template equal to what we computed.

export type QuantityResult = { ok: true; value: string } | { ok: false; problem: string };

/** Decimal SI suffixes and the power of ten each stands for. */
const SUFFIX_EXPONENTS: Record<string, number> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const EXPONENT_SUFFIXES = new Map(Object.entries(SUFFIX_EXPONENTS).map(([s, e]) => [e, s]));
const DECIMAL = /^([+-]?)([0-9]*)(?:\.([0-9]*))?([numkMGTPE]?)$/;
const SMALLEST_EXPONENT = -9;
const LARGEST_EXPONENT = 18;

/**
 * The canonical decimal-SI string of a quantity given as a JSON string or number, e.g.
 * "0.05" → "50m", 1500 → "1500", "2000" → "2k", "-1" → "-1".
 */
export function canonicalDecimalQuantity(input: string | number): QuantityResult {
  const text = typeof input === 'number' ? numberText(input) : input.trim();
  const match = text === undefined ? null : DECIMAL.exec(text);
  const [, sign = '', whole = '', fraction = '', suffix = ''] = match ?? [];
  if (match === null || whole + fraction === '') {
    return {
      ok: false,
      problem: 'is not a decimal number (optionally with a suffix such as m for thousandths)',
    };
  }
  let mantissa = BigInt(whole + fraction);
  let exponent = (SUFFIX_EXPONENTS[suffix] ?? 0) - fraction.length;
  if (mantissa === 0n) return { ok: true, value: '0' };
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent += 1;
  }
  if (exponent < SMALLEST_EXPONENT) {
    return { ok: false, problem: 'is more precise than a billionth, the finest unit supported' };
  }
  // The largest multiple of three that keeps the mantissa whole, as Go's resource.Quantity does.
  const canonicalExponent = Math.min(Math.floor(exponent / 3) * 3, LARGEST_EXPONENT);
  const scaled = mantissa * 10n ** BigInt(exponent - canonicalExponent);
  const unit = EXPONENT_SUFFIXES.get(canonicalExponent) ?? '';
  return { ok: true, value: `${sign === '-' ? '-' : ''}${scaled}${unit}` };
}

function numberText(value: number): string | undefined {
  if (!Number.isFinite(value)) return undefined;
  const text = String(value);
  // Very small or large numbers print with an exponent; prices never need those.
  return /e/i.test(text) ? undefined : text;
}
