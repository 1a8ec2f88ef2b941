# Parley's server image for docker-compose.yml: every model embedded (nothing downloads at run time). CPU torch
# by default; the compose file's GPU generator builds it with TORCH_INDEX set to a CUDA wheel index.
FROM python:3.11-slim
ARG TORCH_INDEX=https://download.pytorch.org/whl/cpu

# libgomp: OpenMP runtime used by torch and CTranslate2 (faster-whisper).
RUN apt-get update && apt-get install -y --no-install-recommends libgomp1 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
# torch first, from the CPU wheel index: a bare `torch` from PyPI pulls the CUDA build (gigabytes).
RUN pip install --no-cache-dir torch==2.13.0 --index-url ${TORCH_INDEX}

COPY pyproject.toml README.md ./
COPY dllm_core dllm_core
COPY assistant assistant
COPY voice voice
COPY streaming streaming
COPY web web
# Editable, so the server finds web/ and the checkpoint beside its code.
RUN pip install --no-cache-dir -e .

ENV PARLEY_HOST=0.0.0.0
EXPOSE 8080 10600
CMD ["parley", "serve"]
