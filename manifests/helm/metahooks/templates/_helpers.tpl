{{/* The base URL the controller manifests call: the Service in the release namespace. */}}
{{- define "metahooks.hookBase" -}}
{{- printf "%s://metahooks.%s/" (ternary "https" "http" .Values.secure.enabled) .Release.Namespace -}}
{{- end -}}

{{/* Whether the controller manifest of this file name is selected. */}}
{{- define "metahooks.selected" -}}
{{- $name := trimSuffix ".yaml" (base .file) -}}
{{- if or (empty .values.controllers) (has $name .values.controllers) }}true{{ end -}}
{{- end -}}

{{/* The YAML documents of a file (a file may hold several, separated by ---). */}}
{{- define "metahooks.documents" -}}
{{- range $doc := regexSplit "(?m)^---\\s*$" . -1 }}
{{- if regexMatch "(?m)^kind:" $doc }}
{{ toJson (fromYaml $doc) }}
{{- end }}
{{- end }}
{{- end -}}
