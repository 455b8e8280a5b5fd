// swift-tools-version:6.0
import PackageDescription

// One direction of dependency: shipquote → (QuoteBench, QuoteWorker, QuoteGateway) → QuoteContract → ShippingRules;
// QuoteBench → (QuoteWorker, QuoteHTTPGateway); QuoteWorker and QuoteGateway → Kafka → CRdKafka; QuoteWorker → MetricsHTTP → CMicroHTTPD;
// QuoteHTTPGateway → (QuoteGateway, MetricsHTTP, CMicroHTTPD), never QuoteWorker.
// KafkaTesting (the embedded mock broker) → Kafka, for shipquote, the bench and tests only.
// ShippingRules and Kafka never meet.
let package = Package(
    name: "ShipQuote",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "shipquote", targets: ["shipquote"]),
        .library(name: "QuoteGateway", targets: ["QuoteGateway"]),
    ],
    targets: [
        .systemLibrary(name: "CRdKafka", pkgConfig: "rdkafka",
                       providers: [.apt(["librdkafka-dev"])]),
        // librdkafka's mock cluster (rdkafka_mock.h), apart so that only KafkaTesting sees it.
        .systemLibrary(name: "CRdKafkaMock", pkgConfig: "rdkafka",
                       providers: [.apt(["librdkafka-dev"])]),
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1",
                       providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
                       providers: [.apt(["libmicrohttpd-dev"])]),
        // A GET-only HTTP endpoint for /metrics and the health probes; knows nothing of shipping.
        .target(name: "MetricsHTTP", dependencies: ["CMicroHTTPD"]),
        .target(name: "Kafka", dependencies: ["CRdKafka"]),
        // The embedded mock broker for the demo, `shipquote broker` and tests; no product exports it.
        .target(name: "KafkaTesting", dependencies: ["Kafka", "CRdKafkaMock"]),
        .target(name: "ShippingRules", dependencies: ["CYAML"]),
        .target(name: "QuoteContract", dependencies: ["ShippingRules"]),
        .target(name: "QuoteWorker", dependencies: ["QuoteContract", "ShippingRules", "Kafka", "MetricsHTTP"]),
        .target(name: "QuoteGateway", dependencies: ["QuoteContract", "Kafka"]),
        // `shipquote gateway`'s HTTP/1.1 service (POST /v1/sessions/{id}/quote) over QuoteGateway; no QuoteWorker.
        .target(name: "QuoteHTTPGateway", dependencies: ["QuoteGateway", "QuoteContract", "ShippingRules", "MetricsHTTP", "CMicroHTTPD"]),
        // Pure parts of `shipquote bench`: percentiles, log-scale histograms, the SVG chart.
        .target(name: "Benchmarking"),
        // `shipquote bench`: the end-to-end run (load, echo baseline, replies, report), `bench gateway`
        // (HTTP through QuoteHTTPGateway against the library alone) and the benches without Kafka
        // (stages, sessions, rules). Not a product: the executable is its one user.
        .target(name: "QuoteBench",
                dependencies: ["QuoteWorker", "QuoteGateway", "QuoteHTTPGateway", "MetricsHTTP", "QuoteContract", "ShippingRules", "Kafka",
                               "KafkaTesting", "Benchmarking"]),
        .executableTarget(name: "shipquote",
                          dependencies: ["QuoteWorker", "QuoteGateway", "QuoteHTTPGateway", "QuoteContract", "ShippingRules", "Kafka", "KafkaTesting", "QuoteBench"]),
        .testTarget(name: "KafkaTests", dependencies: ["Kafka", "KafkaTesting"]),
        .testTarget(name: "ShippingRulesTests", dependencies: ["ShippingRules"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "QuoteContractTests", dependencies: ["QuoteContract"]),
        .testTarget(name: "QuoteWorkerTests",
                    dependencies: ["QuoteWorker", "QuoteGateway", "QuoteContract", "Kafka", "KafkaTesting", "MetricsHTTP", "Benchmarking"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "MetricsHTTPTests", dependencies: ["MetricsHTTP"]),
        .testTarget(name: "BenchmarkingTests", dependencies: ["Benchmarking"]),
        .testTarget(name: "QuoteBenchTests", dependencies: ["QuoteBench", "QuoteContract", "QuoteGateway", "ShippingRules", "Benchmarking", "Kafka", "KafkaTesting"]),
        // The documents beside the code (docs/contract.md, JSON Schemas, AsyncAPI, compose, Dockerfile, Kubernetes) checked against it.
        .testTarget(name: "DocumentsTests", dependencies: ["QuoteContract", "QuoteWorker", "ShippingRules", "CYAML"]),
        .testTarget(name: "QuoteGatewayTests", dependencies: ["QuoteGateway", "QuoteContract", "ShippingRules", "Kafka", "KafkaTesting"]),
        // The HTTP gateway over real sockets, with the embedded broker and a worker in-process; curl for end-to-end calls.
        .testTarget(name: "QuoteHTTPGatewayTests",
                    dependencies: ["QuoteHTTPGateway", "QuoteGateway", "QuoteWorker", "QuoteContract", "ShippingRules", "Kafka", "KafkaTesting", "MetricsHTTP"]),
        // Runs the built `shipquote` binary as a person or a platform would (demo, broker, run, kcat, exit codes);
        // the gateway library beside it, for where its records land.
        .testTarget(name: "ShipquoteTests", dependencies: ["shipquote", "Kafka", "QuoteContract", "QuoteGateway", "ShippingRules"]),
    ]
)
