import { describe, expect, it } from 'vitest';
import { parseCpuList } from './cores';

describe('parseCpuList', () => {
  it('reads single CPUs, ranges and lists of both, in order and once each', () => {
    expect(parseCpuList('0')).toEqual([0]);
    expect(parseCpuList('0-3')).toEqual([0, 1, 2, 3]);
    expect(parseCpuList('5, 0-2,1')).toEqual([0, 1, 2, 5]);
  });

  it('refuses what taskset would not read, naming the setting', () => {
    expect(() => parseCpuList('a')).toThrow('BENCH_SERVER_CPUS: "a" is not a CPU list');
    expect(() => parseCpuList('0,')).toThrow('is not a CPU list');
    expect(() => parseCpuList('3-1')).toThrow('BENCH_SERVER_CPUS: "3-1" runs backwards');
  });
});
