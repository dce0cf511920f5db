import {
  create,
  type DescMessage,
  type DescMethod,
  type DescService,
  isMessage,
  type MessageInitShape,
} from "@bufbuild/protobuf";
import {
  type CallOptions,
  type Client,
  Code,
  ConnectError,
  type ContextValues,
  createContextValues,
  createHandlerContext,
  type HandlerContext,
  type ServiceImpl,
  type Transport,
} from "@connectrpc/connect";

/**
 * A Connect transport that calls a service implemented in this process directly: the same
 * client API, handler context, deadlines and ConnectError codes as over the network, but no
 * serialisation and no socket (DESIGN.md: the in-process path must not pay for what it does
 * not need). Context values the caller sets reach the handler, which lets an in-process
 * DecomposeService take the body the bridge already parsed.
 */
export function inProcessTransport<S extends DescService>(service: S, impl: Partial<ServiceImpl<S>>): Transport {
  const handlers = impl as Record<string, ((input: unknown, ctx: unknown) => unknown) | undefined>;
  return {
    async unary<I extends DescMessage, O extends DescMessage>(
      method: Parameters<Transport["unary"]>[0] & { input: I; output: O },
      signal: AbortSignal | undefined,
      timeoutMs: number | undefined,
      header: Parameters<Transport["unary"]>[3],
      input: MessageInitShape<I>,
      contextValues?: ContextValues,
    ) {
      const handler = handlers[method.localName];
      if (!handler) throw new ConnectError(`${service.typeName}.${method.name} is not implemented`, Code.Unimplemented);
      const context = createHandlerContext({
        service,
        method,
        protocolName: "in-process",
        requestMethod: "POST",
        url: `/${service.typeName}/${method.name}`,
        ...(timeoutMs !== undefined && timeoutMs > 0 ? { timeoutMs } : {}),
        ...(signal ? { requestSignal: signal } : {}),
        ...(header ? { requestHeader: header } : {}),
        ...(contextValues ? { contextValues } : {}),
      });
      const request = isMessage(input, method.input) ? input : create(method.input, input);
      let output: unknown;
      try {
        output = await withDeadline(Promise.resolve(handler(request, context)), context.signal);
      } catch (error) {
        context.abort(error);
        throw ConnectError.from(error);
      }
      const message = isMessage(output, method.output)
        ? output
        : create(method.output, output as MessageInitShape<O>);
      return {
        stream: false as const,
        service,
        method,
        header: context.responseHeader,
        trailer: context.responseTrailer,
        message,
      };
    },
    async stream() {
      throw new ConnectError("streaming RPCs are not served in process", Code.Unimplemented);
    },
  } as Transport;
}

/** Rejects with the context's abort reason (deadline or cancellation) if it fires first. */
function withDeadline<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(ConnectError.from(signal.reason, Code.DeadlineExceeded));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(ConnectError.from(signal.reason, Code.DeadlineExceeded));
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

const NO_VALUES: ContextValues = createContextValues();

/**
 * The handler context of a direct in-process call: what a handler can read, built for the
 * price of one object. Headers and the abort signal are created only when a handler asks for
 * them (the built-in services never do); the signal aborts when the call ends or its deadline
 * passes, as Connect's does.
 */
class DirectContext implements HandlerContext {
  readonly protocolName = "in-process";
  readonly requestMethod = "POST";
  #controller: AbortController | undefined;
  #requestHeader: Headers | undefined;
  #responseHeader: Headers | undefined;
  #responseTrailer: Headers | undefined;
  #done = false;

  constructor(
    readonly service: DescService,
    readonly method: DescMethod,
    readonly values: ContextValues,
    readonly deadline: number | undefined,
    readonly header: CallOptions["headers"],
  ) {}

  get url(): string {
    return `/${this.service.typeName}/${this.method.name}`;
  }

  get signal(): AbortSignal {
    this.#controller ??= new AbortController();
    if (this.#done && !this.#controller.signal.aborted) this.#controller.abort();
    return this.#controller.signal;
  }

  timeoutMs = (): number | undefined =>
    this.deadline === undefined ? undefined : Math.max(0, this.deadline - performance.now());

  get requestHeader(): Headers {
    this.#requestHeader ??= new Headers(this.header);
    return this.#requestHeader;
  }

  get responseHeader(): Headers {
    this.#responseHeader ??= new Headers();
    return this.#responseHeader;
  }

  get responseTrailer(): Headers {
    this.#responseTrailer ??= new Headers();
    return this.#responseTrailer;
  }

  /** The call is over (answered, failed or past its deadline): a handler still working may stop. */
  end(reason?: unknown): void {
    this.#done = true;
    this.#controller?.abort(reason);
  }
}

type Handler = (input: unknown, ctx: HandlerContext) => unknown;

/** One unary method called directly: request and response are messages, errors are ConnectErrors. */
function directUnary(service: DescService, method: DescMethod, handler: Handler) {
  return async (input: unknown, options?: CallOptions): Promise<unknown> => {
    const signal = options?.signal;
    if (signal?.aborted) throw ConnectError.from(signal.reason, Code.Canceled);
    const timeoutMs = options?.timeoutMs;
    const deadline = timeoutMs !== undefined && timeoutMs > 0 ? performance.now() + timeoutMs : undefined;
    const context = new DirectContext(service, method, options?.contextValues ?? NO_VALUES, deadline, options?.headers);
    const request = isMessage(input, method.input) ? input : create(method.input, input as MessageInitShape<DescMessage>);
    let output: unknown;
    try {
      const result = handler(request, context);
      // A handler that answered synchronously cannot have overrun anything: no timer, no listener.
      output = result instanceof Promise ? await withinDeadline(result, timeoutMs, signal) : result;
    } catch (error) {
      context.end(error);
      throw ConnectError.from(error);
    }
    context.end();
    if (options?.onHeader) options.onHeader(context.responseHeader);
    if (options?.onTrailer) options.onTrailer(context.responseTrailer);
    return isMessage(output, method.output) ? output : create(method.output, output as MessageInitShape<DescMessage>);
  };
}

/** Rejects with DeadlineExceeded when the deadline passes first, Canceled when the caller aborts. */
function withinDeadline<T>(work: Promise<T>, timeoutMs: number | undefined, signal: AbortSignal | undefined): Promise<T> {
  if ((timeoutMs === undefined || timeoutMs <= 0) && !signal) return work;
  return new Promise<T>((resolve, reject) => {
    const timer =
      timeoutMs !== undefined && timeoutMs > 0
        ? setTimeout(() => {
            cleanup();
            reject(new ConnectError(`the call did not answer within ${timeoutMs} ms`, Code.DeadlineExceeded));
          }, timeoutMs)
        : undefined;
    const onAbort = () => {
      cleanup();
      reject(ConnectError.from(signal?.reason, Code.Canceled));
    };
    const cleanup = () => {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        cleanup();
        resolve(value);
      },
      (error: unknown) => {
        cleanup();
        reject(error);
      },
    );
  });
}

/**
 * A Connect client for a service implemented in this process. Unary methods call the
 * implementation directly, without a transport: the request becomes a message, the handler
 * gets a lightweight context (its values, deadline and signal; headers on demand), and the
 * answer or error comes back as over the network (a message, or a ConnectError with its code,
 * DeadlineExceeded past `timeoutMs`). The fixed cost of a call is then one object and one
 * promise, where Connect's generic path builds a full handler context with linked abort
 * controllers and timers on every call. Remote services keep `createClient` over a real
 * transport; `inProcessTransport` remains for callers that need a Transport.
 */
export function inProcessClient<S extends DescService>(service: S, impl: Partial<ServiceImpl<S>>): Client<S> {
  const handlers = impl as Record<string, Handler | undefined>;
  const client: Record<string, unknown> = {};
  for (const method of service.methods) {
    if (method.methodKind !== "unary") {
      client[method.localName] = () => {
        throw new ConnectError("streaming RPCs are not served in process", Code.Unimplemented);
      };
      continue;
    }
    const handler = handlers[method.localName];
    client[method.localName] = handler
      ? directUnary(service, method, handler.bind(impl))
      : () => Promise.reject(new ConnectError(`${service.typeName}.${method.name} is not implemented`, Code.Unimplemented));
  }
  return client as Client<S>;
}
