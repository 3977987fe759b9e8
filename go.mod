module github.com/retrykit/retrykit

go 1.26

require (
	github.com/jonboulle/clockwork v0.5.0
	github.com/onsi/gomega v1.44.0
	github.com/stretchr/testify v1.12.1
	go.uber.org/goleak v1.3.0
)

require (
	github.com/google/go-cmp v0.7.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/net v0.56.0 // indirect
	golang.org/x/text v0.38.0 // indirect
)
