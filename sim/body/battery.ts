// Battery: state of charge drains with time, driving, arm motion and scans, and
// charges at the dock. Levels (okay / low / critical) follow configurable
// thresholds, as in paper 003's Valdemar experiments.
export type BatteryLevel = 'okay' | 'low' | 'critical' | 'empty';

export interface BatteryParams {
  capacityWh: number;
  idleW: number;
  driveWhPerM: number;
  armW: number;
  scanWh: number;
  chargeW: number;
  low: number;
  critical: number;
  drainScale: number;
}

export interface BatteryState {
  percent: number;
  charging: boolean;
}

export class Battery {
  percent: number;
  charging = false;

  constructor(
    readonly params: BatteryParams,
    percent: number,
  ) {
    this.percent = percent;
  }

  get level(): BatteryLevel {
    return levelOf(this.percent, this.params);
  }

  /** Drains (or charges) for one interval; returns the new level. */
  update(dt: number, drivenMetres: number, armMoving: boolean): void {
    const p = this.params;
    if (this.charging) {
      this.percent = Math.min(100, this.percent + ((p.chargeW * dt) / 3600 / p.capacityWh) * 100);
      return;
    }
    const wh = ((p.idleW + (armMoving ? p.armW : 0)) * dt) / 3600 + p.driveWhPerM * drivenMetres;
    this.drainWh(wh);
  }

  drainWh(wh: number): void {
    const p = this.params;
    this.percent = Math.max(0, this.percent - ((wh * p.drainScale) / p.capacityWh) * 100);
  }

  /** Seconds of charging needed to reach `target` percent. */
  secondsToCharge(target: number): number {
    const p = this.params;
    const need = Math.max(0, target - this.percent);
    return ((need / 100) * p.capacityWh * 3600) / p.chargeW;
  }

  snapshot(): BatteryState {
    return { percent: this.percent, charging: this.charging };
  }

  restore(s: BatteryState): void {
    this.percent = s.percent;
    this.charging = s.charging;
  }
}

export function levelOf(percent: number, p: { low: number; critical: number }): BatteryLevel {
  if (percent <= 0) return 'empty';
  if (percent <= p.critical) return 'critical';
  if (percent <= p.low) return 'low';
  return 'okay';
}
