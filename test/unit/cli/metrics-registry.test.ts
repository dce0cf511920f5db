import { describe, expect, it } from "vitest";
import { Registry } from "../../../src/metrics/registry.js";

describe("the hand-written Prometheus registry", () => {
  it("renders counters, gauges and cumulative histograms in text format 0.0.4", () => {
    const r = new Registry();
    const requests = r.counter("t_requests_total", "Requests.\nSecond line", ["route", "status"]);
    requests.inc({ route: "/v1/x", status: "200" });
    requests.inc({ route: "/v1/x", status: "200" }, 2);
    requests.inc({ route: 'we"ird\\', status: "500" });
    requests.inc({ route: "/v1/x", status: "200" }, -5);
    r.gauge("t_depth", "Depth.", [], (g) => g.set(7));
    const latency = r.histogram("t_seconds", "Latency.", [], [0.1, 1]);
    latency.observe(0.05);
    latency.observe(0.5);
    latency.observe(3);
    expect(r.render()).toBe(
      [
        "# HELP t_requests_total Requests.\\nSecond line",
        "# TYPE t_requests_total counter",
        't_requests_total{route="/v1/x",status="200"} 3',
        't_requests_total{route="we\\"ird\\\\",status="500"} 1',
        "# HELP t_depth Depth.",
        "# TYPE t_depth gauge",
        "t_depth 7",
        "# HELP t_seconds Latency.",
        "# TYPE t_seconds histogram",
        't_seconds_bucket{le="0.1"} 1',
        't_seconds_bucket{le="1"} 2',
        't_seconds_bucket{le="+Inf"} 3',
        "t_seconds_sum 3.55",
        "t_seconds_count 3",
        "",
      ].join("\n"),
    );
  });

  it("refuses invalid or repeated names at registration", () => {
    const r = new Registry();
    r.counter("ok_total", "x");
    expect(() => r.counter("ok_total", "x")).toThrow(/twice/);
    expect(() => r.counter("bad-name", "x")).toThrow(/invalid metric name/);
    expect(() => r.histogram("h", "x", ["le"])).toThrow(/invalid label/);
  });
});
