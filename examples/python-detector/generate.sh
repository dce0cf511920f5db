#!/bin/sh
# Generates the Python stubs of Guard's DetectorService from the repository's proto files
# into OUT (default: ./generated, ignored by git). Generated code is never committed: the
# stubs always match the proto files of the checkout they run against.
#
# Debian's python3-grpc-tools (1.14) bundles protoc 3.5, which rejects proto3 `optional`
# (used by Finding.start/end). So the system protoc (protobuf-compiler, 3.21) with the gRPC
# plugin from protobuf-compiler-grpc is preferred; `python3 -m grpc_tools.protoc` is the
# fallback for a pip-installed grpcio-tools, which bundles a recent protoc.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
PROTO="$HERE/../../proto"
OUT="${1:-$HERE/generated}"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
FILES="guard/v1/types.proto guard/v1/detector.proto"

cd "$PROTO"
if command -v protoc >/dev/null 2>&1 && command -v grpc_python_plugin >/dev/null 2>&1; then
  # shellcheck disable=SC2086 # FILES is a list of paths without spaces
  protoc -I . --plugin=protoc-gen-grpc_python="$(command -v grpc_python_plugin)" \
    --python_out="$OUT" --grpc_python_out="$OUT" $FILES
else
  # shellcheck disable=SC2086
  "${PYTHON:-python3}" -m grpc_tools.protoc -I . --python_out="$OUT" --grpc_python_out="$OUT" $FILES || {
    echo "generate.sh: stub generation failed. Install protobuf-compiler and protobuf-compiler-grpc" >&2
    echo "(Debian's python3-grpc-tools is too old for proto3 'optional'), or grpcio-tools >= 1.32 from pip." >&2
    exit 1
  }
fi
echo "generated DetectorService stubs in $OUT"
