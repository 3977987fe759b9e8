package chart

import (
	"bytes"
	"fmt"
	"html"
	"io"
	"strconv"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
)

// The geometry of one SVG panel, in pixels. All coordinates are integers,
// so the output is the same on every platform.
const (
	panelWidth  = 480
	panelHeight = 300
	marginLeft  = 56
	marginRight = 16
	marginTop   = 40
	marginBot   = 48
	plotWidth   = panelWidth - marginLeft - marginRight
	plotHeight  = panelHeight - marginTop - marginBot
)

// Colours of the SVG.
const (
	colourBar  = "#4878b0"
	colourOver = "#d62728"
	colourAxis = "#333333"
	colourLine = "#111111"
)

// tickSteps are the bucket counts an SVG time axis may step by.
var tickSteps = []int{1, 2, 5, 10, 15, 20, 30, 60, 120, 180, 240, 360, 720, 1440, 2880, 10080}

// WriteSVG writes the charts side by side as one SVG image, each panel
// with its own y scale, its capacity line (dashed) and its peak labelled;
// bars over the capacity are red. Pass the same Span to charts that should
// share a time axis. It returns the error of the write, if any.
func WriteSVG(w io.Writer, charts ...Chart) error {
	var b bytes.Buffer
	width := max(len(charts), 1) * panelWidth
	fmt.Fprintf(&b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
		width, panelHeight, width, panelHeight)
	fmt.Fprintf(&b, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", width, panelHeight)
	for i, c := range charts {
		fmt.Fprintf(&b, "<g transform=\"translate(%d,0)\">\n", i*panelWidth)
		c.svgPanel(&b)
		b.WriteString("</g>\n")
	}
	b.WriteString("</svg>\n")
	_, err := w.Write(b.Bytes())
	return err
}

func (c Chart) svgPanel(b *bytes.Buffer) {
	l := c.layout(plotWidth)
	top := int64(l.top)
	x := func(col int) int { return marginLeft + col*plotWidth/l.cols }
	y := func(v int) int { return marginTop + plotHeight - int(int64(v)*plotHeight/top) }
	bottom := marginTop + plotHeight

	fmt.Fprintf(b, "<text x=\"%d\" y=\"20\" font-weight=\"bold\">%s</text>\n", marginLeft, html.EscapeString(c.Title))
	// Bars: one per column that holds anything, at least a pixel tall.
	for col, v := range l.columns {
		if v == 0 {
			continue
		}
		// A bar over the capacity is red above the line, blue below it.
		x0, w := x(col), max(x(col+1)-x(col), 1)
		rect := func(y0, y1 int, fill string) {
			fmt.Fprintf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", x0, y0, w, y1-y0, fill)
		}
		yTop := min(y(v), bottom-1)
		if c.Capacity > 0 && v > c.Capacity {
			yCap := y(c.Capacity)
			rect(min(yTop, yCap-1), yCap, colourOver)
			if yCap < bottom {
				rect(yCap, bottom, colourBar)
			}
		} else {
			rect(yTop, bottom, colourBar)
		}
	}
	// Axes and y labels: 0, the top, and the capacity on its line.
	fmt.Fprintf(b, "<path d=\"M%d %dV%dH%d\" fill=\"none\" stroke=\"%s\"/>\n", marginLeft, marginTop, bottom, marginLeft+plotWidth, colourAxis)
	yLabel := func(yy int, s string) {
		fmt.Fprintf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n", marginLeft-6, yy+4, s)
	}
	yLabel(bottom, "0")
	yLabel(marginTop, strconv.Itoa(l.top))
	if c.Capacity > 0 {
		capY := y(c.Capacity)
		fmt.Fprintf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-dasharray=\"6 4\"/>\n",
			marginLeft, capY, marginLeft+plotWidth, capY, colourLine)
		if capY-marginTop >= 14 && bottom-capY >= 14 {
			yLabel(capY, strconv.Itoa(c.Capacity))
		}
		fmt.Fprintf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"%s\">capacity %d</text>\n",
			marginLeft+plotWidth, capY-4, colourLine, c.Capacity)
	}
	// The time axis.
	step := tickSteps[len(tickSteps)-1]
	for _, s := range tickSteps {
		if l.span/s <= 8 {
			step = s
			break
		}
	}
	for k := 0; k <= l.span; k += step {
		xx := marginLeft + int(int64(k)*plotWidth/int64(l.span))
		fmt.Fprintf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\"/>\n", xx, bottom, xx, bottom+4, colourAxis)
		fmt.Fprintf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", xx, bottom+18, schedfmt.Duration(time.Duration(k)*c.Bucket))
	}
	fmt.Fprintf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">time after recovery</text>\n", marginLeft+plotWidth/2, bottom+38)
	// The peak, labelled above its bar, or beside it at the top; left of
	// it in the right half.
	if l.peak > 0 {
		col := l.peakBucket / l.perCol
		anchor, xx := "start", x(col+1)+4
		if col > l.cols/2 {
			anchor, xx = "end", x(col)-4
		}
		fmt.Fprintf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"%s\">%s</text>\n", xx, max(y(l.peak)-4, marginTop+12), anchor, html.EscapeString(c.peakLabel(l)))
	}
}
