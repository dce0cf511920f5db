#!/usr/bin/env python3
"""An example Guard detector in Python: reports internal host names (`*.corp.internal`).

It serves guard.v1.DetectorService over gRPC (h2c), the contract every Guard detector
implements; Guard calls it in parallel with its built-in detectors, under a deadline. Run it
with the system interpreter, which sees Debian's python3-grpcio:

    /usr/bin/python3 examples/python-detector/detector.py --port 50071

It prints `listening on HOST:PORT` once it accepts calls (with --port 0 the port is chosen by
the kernel, which is how the integration test avoids port races).
"""

import argparse
import atexit
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from concurrent import futures

import grpc

HERE = os.path.dirname(os.path.abspath(__file__))
NAME = "example-hostnames"
VERSION = "1"
CATEGORY = "x.example.internal_hostname"

# A host name under corp.internal. The look-arounds keep it from matching inside a longer
# name (`a.corp.internal.example.com`) or a longer label (`xcorp.internal` is no match).
HOSTNAME = re.compile(
    r"(?<![A-Za-z0-9.-])"
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+corp\.internal"
    r"(?![A-Za-z0-9-]|\.[A-Za-z0-9])",
    re.IGNORECASE,
)

# Guard keeps at most this much of a finding's subject; sending more only costs bandwidth.
MAX_SUBJECT_CHARS = 256


def load_stubs(stubs_dir):
    """Imports the generated stubs, generating them first (into a temporary folder) if needed."""
    if stubs_dir is None:
        stubs_dir = tempfile.mkdtemp(prefix="guard-detector-stubs-")
        atexit.register(shutil.rmtree, stubs_dir, True)
        subprocess.run(["sh", os.path.join(HERE, "generate.sh"), stubs_dir], check=True, stdout=subprocess.DEVNULL)
    sys.path.insert(0, stubs_dir)
    from guard.v1 import detector_pb2, detector_pb2_grpc, types_pb2  # noqa: E402

    return detector_pb2, detector_pb2_grpc, types_pb2


def make_servicer(detector_pb2, detector_pb2_grpc, types_pb2, delay_s):
    class HostnameDetector(detector_pb2_grpc.DetectorServiceServicer):
        def Describe(self, request, context):
            # Empty channels: show me every channel.
            return detector_pb2.DescribeResponse(name=NAME, version=VERSION, categories=[CATEGORY])

        def Detect(self, request, context):
            if delay_s > 0:
                # --delay-ms: a detector slower than Guard's deadline. Guard stops waiting and
                # reports these segments as unjudged. The RPC then ends (cancelled), which
                # fires this callback: stop working rather than judge for nobody.
                ended = threading.Event()
                context.add_callback(ended.set)
                if ended.wait(delay_s):
                    return detector_pb2.DetectResponse()
            findings = []
            for segment in request.segments:
                for match in HOSTNAME.finditer(segment.text):
                    finding = types_pb2.Finding(
                        category=CATEGORY,
                        severity=types_pb2.SEVERITY_MEDIUM,
                        path=segment.path,
                        score=0.9,
                        detector=NAME,
                        subject=match.group(0)[:MAX_SUBJECT_CHARS],
                        placeholder_kind="INTERNAL_HOST",
                        reason="internal host name",
                        channel=segment.channel,
                        call_id=segment.call_id,
                    )
                    # Python indexes str by code point, which is exactly what Guard's offsets
                    # count. Offsets only where the text is a verbatim leaf of the body.
                    if segment.addressable:
                        finding.start = match.start()
                        finding.end = match.end()
                    findings.append(finding)
            return detector_pb2.DetectResponse(findings=findings)

    return HostnameDetector()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=50071, help="0 lets the kernel choose")
    parser.add_argument("--delay-ms", type=int, default=0, help="sleep this long in every Detect call")
    parser.add_argument("--stubs", help="folder with stubs made by generate.sh (default: generate now)")
    args = parser.parse_args()

    detector_pb2, detector_pb2_grpc, types_pb2 = load_stubs(args.stubs)
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    detector_pb2_grpc.add_DetectorServiceServicer_to_server(
        make_servicer(detector_pb2, detector_pb2_grpc, types_pb2, args.delay_ms / 1000.0), server
    )
    port = server.add_insecure_port(f"{args.host}:{args.port}")
    if port == 0:
        sys.exit(f"cannot listen on {args.host}:{args.port}")
    server.start()
    print(f"listening on {args.host}:{port}", flush=True)

    stopped = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stopped.set())
    stopped.wait()
    server.stop(grace=0).wait()


if __name__ == "__main__":
    main()
