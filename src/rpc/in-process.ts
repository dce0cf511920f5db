import { create, type DescMessage, type DescService, isMessage, type MessageInitShape } from "@bufbuild/protobuf";
import {
  type Client,
  Code,
  ConnectError,
  type ContextValues,
  createClient,
  createHandlerContext,
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

/** A Connect client for a service implemented in this process. */
export function inProcessClient<S extends DescService>(service: S, impl: Partial<ServiceImpl<S>>): Client<S> {
  return createClient(service, inProcessTransport(service, impl));
}
