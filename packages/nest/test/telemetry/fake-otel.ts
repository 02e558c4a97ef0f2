import {
  trace,
  type Attributes,
  type AttributeValue,
  type Context,
  type Counter,
  type Histogram,
  type Meter,
  type MeterProvider,
  type Span,
  type SpanOptions,
  type SpanStatus,
  type TimeInput,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';

/** A span as the fake tracer recorded it. */
export class FakeSpan {
  readonly attributes: Record<string, AttributeValue | undefined>;
  readonly events: { name: string; attributes?: Attributes }[] = [];
  status?: SpanStatus;
  endTime?: TimeInput;

  constructor(
    readonly name: string,
    readonly options: SpanOptions,
    readonly parent: FakeSpan | undefined,
  ) {
    this.attributes = { ...options.attributes };
  }

  spanContext() {
    return { traceId: '1'.repeat(32), spanId: '2'.repeat(16), traceFlags: 1 };
  }
  setAttribute(key: string, value: AttributeValue) {
    this.attributes[key] = value;
    return this;
  }
  setAttributes(attributes: Attributes) {
    Object.assign(this.attributes, attributes);
    return this;
  }
  addEvent(name: string, attributes?: Attributes) {
    this.events.push({ name, attributes });
    return this;
  }
  setStatus(status: SpanStatus) {
    this.status = status;
    return this;
  }
  end(endTime?: TimeInput) {
    this.endTime = endTime;
  }
  isRecording() {
    return true;
  }
}

/** A tracer provider that keeps every span in memory. */
export class FakeTracerProvider implements TracerProvider {
  readonly spans: FakeSpan[] = [];

  getTracer(): Tracer {
    const tracer = {
      startSpan: (name: string, options: SpanOptions = {}, context?: Context) => {
        const parent = context && (trace.getSpan(context) as unknown as FakeSpan | undefined);
        const span = new FakeSpan(name, options, parent);
        this.spans.push(span);
        return span as unknown as Span;
      },
      startActiveSpan: () => {
        throw new Error('not used');
      },
    };
    return tracer as unknown as Tracer;
  }
}

/** One recorded measurement. */
export interface Measurement {
  readonly instrument: string;
  readonly value: number;
  readonly attributes?: Attributes;
}

type ObserveFn = (value: number, attributes?: Attributes) => void;

/** A meter provider that keeps every measurement in memory. */
export class FakeMeterProvider implements MeterProvider {
  readonly measurements: Measurement[] = [];
  readonly units = new Map<string, string | undefined>();
  private readonly gauges = new Map<string, (result: { observe: ObserveFn }) => void>();

  getMeter(): Meter {
    const instrument = (name: string, options?: { unit?: string }) => {
      this.units.set(name, options?.unit);
      const record = (value: number, attributes?: Attributes) =>
        this.measurements.push({ instrument: name, value, attributes });
      return { add: record, record } as unknown as Counter & Histogram;
    };
    const gauge = (name: string, options?: { unit?: string }) => {
      this.units.set(name, options?.unit);
      return {
        addCallback: (callback: (result: { observe: ObserveFn }) => void) =>
          this.gauges.set(name, callback),
      };
    };
    return {
      createCounter: instrument,
      createHistogram: instrument,
      createObservableGauge: gauge,
      createObservableCounter: gauge,
    } as unknown as Meter;
  }

  /** What the gauge's callback observes now. */
  observe(name: string): Measurement[] {
    const observed: Measurement[] = [];
    this.gauges.get(name)?.({
      observe: (value, attributes) => observed.push({ instrument: name, value, attributes }),
    });
    return observed;
  }

  /** The measurements of a synchronous instrument, or what an observable one observes now. */
  of(name: string): Measurement[] {
    if (this.gauges.has(name)) return this.observe(name);
    return this.measurements.filter((measurement) => measurement.instrument === name);
  }
}
