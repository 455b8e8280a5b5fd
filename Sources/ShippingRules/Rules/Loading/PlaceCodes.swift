import Foundation

/// The codes addresses carry (ISO 3166-1 alpha-2 countries, ISO 3166-2 subdivisions, IANA time
/// zones), so that a rule written with a value no address ever carries (`UK`, `New York`) is
/// refused with what was probably meant, instead of loading and never matching.
enum PlaceCodes {
    /// ISO 3166-1 alpha-2, every officially assigned code, and XK (Kosovo), which wallets use.
    static let countries: Set<String> = Set("""
        AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ
        CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR
        GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP
        KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT
        MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW
        SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG
        UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW
        """.split(whereSeparator: \.isWhitespace).map(String.init))

    /// Codes people write for a country that are not its ISO code.
    static let countryMistakes: [String: String] = [
        "UK": "GB", "EL": "GR", "EN": "GB", "USA": "US", "GBR": "GB", "CAN": "CA", "DEU": "DE", "GER": "DE", "FRA": "FR", "JPN": "JP",
        "AUS": "AU", "MEX": "MX", "ESP": "ES", "ITA": "IT", "NLD": "NL", "IRL": "IE", "KWT": "KW", "CHE": "CH", "AUT": "AT",
        "BEL": "BE", "ENGLAND": "GB", "SCOTLAND": "GB", "WALES": "GB", "UNITED KINGDOM": "GB", "GREAT BRITAIN": "GB",
        "UNITED STATES": "US", "GERMANY": "DE", "FRANCE": "FR", "JAPAN": "JP", "CANADA": "CA", "KUWAIT": "KW",
    ]

    /// Subdivision names (folded) of the countries merchants name most, to their ISO 3166-2 codes.
    static let subdivisionNames: [String: String] = {
        let pairs = """
            alabama AL|alaska AK|arizona AZ|arkansas AR|california CA|colorado CO|connecticut CT|delaware DE|florida FL|georgia GA
            hawaii HI|idaho ID|illinois IL|indiana IN|iowa IA|kansas KS|kentucky KY|louisiana LA|maine ME|maryland MD
            massachusetts MA|michigan MI|minnesota MN|mississippi MS|missouri MO|montana MT|nebraska NE|nevada NV
            new hampshire NH|new jersey NJ|new mexico NM|new york NY|north carolina NC|north dakota ND|ohio OH|oklahoma OK
            oregon OR|pennsylvania PA|rhode island RI|south carolina SC|south dakota SD|tennessee TN|texas TX|utah UT|vermont VT
            virginia VA|washington WA|west virginia WV|wisconsin WI|wyoming WY|district of columbia DC|puerto rico PR|guam GU
            american samoa AS|northern mariana islands MP|us virgin islands VI|alberta AB|british columbia BC|manitoba MB
            new brunswick NB|newfoundland and labrador NL|nova scotia NS|ontario ON|prince edward island PE|quebec QC
            saskatchewan SK|northwest territories NT|nunavut NU|yukon YT
            """
        var table: [String: String] = [:]
        for entry in pairs.split(whereSeparator: { $0 == "|" || $0 == "\n" }) {
            let words = entry.trimmingCharacters(in: .whitespaces).split(separator: " ")
            table[words.dropLast().joined(separator: " ")] = String(words.last!)
        }
        return table
    }()

    /// Abbreviations people write for a time zone, to the IANA zone they usually mean.
    static let timeZoneAbbreviations: [String: String] = [
        "EST": "America/New_York", "EDT": "America/New_York", "CST": "America/Chicago", "CDT": "America/Chicago",
        "MST": "America/Denver (America/Phoenix in Arizona)", "MDT": "America/Denver", "PST": "America/Los_Angeles",
        "PDT": "America/Los_Angeles", "AKST": "America/Anchorage", "AKDT": "America/Anchorage", "HST": "Pacific/Honolulu",
        "BST": "Europe/London", "CEST": "Europe/Paris", "JST": "Asia/Tokyo", "AEST": "Australia/Sydney", "AEDT": "Australia/Sydney",
    ]

    /// Zone names that are fixed offsets on purpose.
    static let universal: Set<String> = ["UTC", "GMT", "UCT", "Zulu", "Universal", "Greenwich", "Etc/UTC", "Etc/GMT"]
}

extension RulesNode {
    /// A list of ISO 3166-1 alpha-2 codes, upper-cased; any other value can never match an address.
    func countryCodes() throws(RulesError) -> Set<String> {
        var codes: Set<String> = []
        for item in try list() {
            let text = try item.string("a country code like US")
            let code = PlaceName.code(text)
            guard PlaceCodes.countries.contains(code) else {
                var message = "expected an ISO 3166-1 alpha-2 country code like US, found \(item.node.shortDescription), which no address carries"
                if let meant = PlaceCodes.countryMistakes[code] { message += "; did you mean \(meant)?" }
                throw item.error(.invalidValue, message)
            }
            codes.insert(code)
        }
        return codes
    }

    /// A list of ISO 3166-2 subdivision codes (the part after `US-`: 1 to 3 letters or digits), upper-cased.
    func subdivisionCodes() throws(RulesError) -> Set<String> {
        var codes: Set<String> = []
        for item in try list() {
            let text = try item.string("a state code like CA")
            let code = PlaceName.code(text)
            guard (1...3).contains(code.count), code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                var message = "expected an ISO 3166-2 subdivision code like CA (addresses carry codes, not names), found \(item.node.shortDescription)"
                let parts = code.split(separator: "-")
                if let meant = PlaceCodes.subdivisionNames[PlaceName.fold(text)] { message += "; did you mean \(meant)?" }
                else if parts.count == 2, PlaceCodes.countries.contains(String(parts[0])), (1...3).contains(parts[1].count) {
                    message += "; did you mean \(parts[1])? (write the country under country:)"
                }
                throw item.error(.invalidValue, message)
            }
            codes.insert(code)
        }
        return codes
    }
}
