// swift-tools-version:6.0
import PackageDescription

// One direction of dependency: shipquote → (QuoteWorker, QuoteGateway) → QuoteContract → ShippingRules;
// QuoteWorker and QuoteGateway → Kafka → CRdKafka. ShippingRules and Kafka never meet.
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
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1",
                       providers: [.apt(["libyaml-dev"])]),
        .target(name: "Kafka", dependencies: ["CRdKafka"]),
        .target(name: "ShippingRules", dependencies: ["CYAML"]),
        .target(name: "QuoteContract", dependencies: ["ShippingRules"]),
        .target(name: "QuoteWorker", dependencies: ["QuoteContract", "ShippingRules", "Kafka"]),
        .target(name: "QuoteGateway", dependencies: ["QuoteContract", "Kafka"]),
        .executableTarget(name: "shipquote",
                          dependencies: ["QuoteWorker", "QuoteGateway", "QuoteContract", "ShippingRules", "Kafka"]),
        .testTarget(name: "KafkaTests", dependencies: ["Kafka"]),
        .testTarget(name: "ShippingRulesTests", dependencies: ["ShippingRules"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "QuoteContractTests", dependencies: ["QuoteContract"]),
        .testTarget(name: "QuoteWorkerTests",
                    dependencies: ["QuoteWorker", "QuoteGateway", "QuoteContract", "Kafka"]),
        .testTarget(name: "QuoteGatewayTests", dependencies: ["QuoteGateway", "QuoteContract", "ShippingRules", "Kafka"]),
        // Runs the built `shipquote` binary as a person or a platform would (demo, broker, run, kcat).
        .testTarget(name: "ShipquoteTests", dependencies: ["shipquote", "Kafka"]),
    ]
)
