package engine

// Version is Kingrook's semantic version (major.minor.patch, semver.org):
// the version every build reports, in "id name Kingrook <Version>" and in
// "kingrook version". A release is tagged v<Version>.
const Version = "1.1.0"
