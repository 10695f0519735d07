// The timeline page's script, embedded into every timeline.html at build time: tooltips from the
// marks' title elements, a click pins a mark's details in the side panel (as does #select=<event>),
// the view opens on the span where something happens, zoom (buttons, ctrl+wheel) re-lays out every
// mark from its data-t0/t1, the axis is redrawn per zoom, long lane labels are shortened, the jumps
// to violations, the legend's entries for what the plot has, and checks that nothing is cut off (the
// body's data-overflow lists what is) and that the legend explains every mark (data-unexplained).
(function(){
  const plot=document.getElementById('plot'), scroll=document.getElementById('scroll'), tip=document.getElementById('tip');
  const panel=document.getElementById('panel-body'), labels=document.querySelector('svg.labels');
  const END=+plot.dataset.end, PAD=+plot.dataset.pad, PADR=+plot.dataset.padRight, AXIS=+plot.dataset.axis;
  const V0=+plot.dataset.view0, V1=+plot.dataset.view1, NS=plot.namespaceURI, MAXSCALE=50;
  let scale=1, mode='action';  // 'action' or 'all': the view kept on resizes; '' once zoomed by hand
  let ringed=null;
  const X=t=>PAD+t*scale;
  for(const t of Array.from(document.querySelectorAll('svg title'))){
    t.parentNode.setAttribute('data-tip',t.textContent); t.remove();
  }
  const positioned=Array.from(plot.querySelectorAll('[data-t0]')).filter(e=>!e.closest('#axis,#grid'));
  function el(tag,attrs,text){const e=document.createElementNS(NS,tag);for(const k in attrs)e.setAttribute(k,attrs[k]);if(text!==undefined)e.textContent=text;return e;}
  function niceStep(){const raw=90/scale,mag=Math.pow(10,Math.floor(Math.log10(raw)));for(const m of [1,2,5])if(m*mag>=raw)return Math.max(1,Math.round(m*mag));return Math.max(1,Math.round(10*mag));}
  // The axis reads in seconds, with as many decimals as its step needs; each label's ms on hover.
  const secs=(t,step)=>(t/1000).toFixed(step>=1000?0:step>=100?1:step>=10?2:3)+' s';
  function drawAxis(){
    const axis=document.getElementById('axis'),grid=document.getElementById('grid'),H=+plot.getAttribute('height');
    axis.replaceChildren(el('rect',{x:0,y:0,width:X(END)+PADR,height:AXIS-4,'class':'axis-bg'}));grid.replaceChildren();
    const step=niceStep();
    for(let t=0;t<=END;t+=step){
      grid.appendChild(el('line',{x1:X(t),x2:X(t),y1:AXIS,y2:H,'class':'grid'}));
      axis.appendChild(el('line',{x1:X(t),x2:X(t),y1:AXIS-10,y2:AXIS-4,'class':'tick'}));
      axis.appendChild(el('text',{x:X(t),y:AXIS-14,'class':'tick-label','data-tip':t+' ms'},secs(t,step)));
    }
    axis.appendChild(el('text',{x:0,y:9,'class':'cursor-time',id:'cursor-time'},''));
  }
  // Where the pointer is on the plot, in ms, above the axis.
  plot.addEventListener('mousemove',ev=>{
    const c=document.getElementById('cursor-time');if(!c)return;
    const x=ev.clientX-plot.getBoundingClientRect().left,t=Math.round((x-PAD)/scale);
    if(t<0||t>END){c.textContent='';return;}
    c.textContent=t+' ms';c.setAttribute('x',Math.min(Math.max(x,30),X(END)+PADR-30));
  });
  plot.addEventListener('mouseleave',()=>{const c=document.getElementById('cursor-time');if(c)c.textContent='';});
  function layout(){
    for(const e of positioned){
      const x0=X(+e.dataset.t0),dx=+(e.dataset.dx||0);
      switch(e.tagName){
        case 'rect':{const w=Math.max(+(e.dataset.minw||1),X(+e.dataset.t1)-x0);e.setAttribute('x',x0);e.setAttribute('width',w);break;}
        case 'line':e.setAttribute('x1',x0);e.setAttribute('x2',x0);break;
        case 'text':e.setAttribute('x',x0+dx);
          // A label inside a bar shows only while the bar is wide enough for it.
          if(e.dataset.t1!==undefined)e.style.display=X(+e.dataset.t1)-x0<+(e.dataset.minw||0)?'none':'';
          break;
        case 'g':e.setAttribute('transform','translate('+x0+','+e.dataset.y+')');break;
      }
    }
    plot.setAttribute('width',X(END)+PADR);
    drawAxis();
    placeRing();
  }
  const viewWidth=()=>Math.max(40,scroll.clientWidth-PAD-PADR);
  const minScale=()=>viewWidth()/Math.max(END,1);
  const clamp=s=>Math.min(MAXSCALE,Math.max(minScale(),s));
  function show(t0,t1,m){scale=clamp(viewWidth()/Math.max(t1-t0,1));mode=m;layout();scroll.scrollLeft=X(t0)-PAD;noteShown();}
  const fitAction=()=>show(V0,V1,'action'), fitAll=()=>show(0,END,'all');
  // The span in view, as the plot's data-shown="from..to" (ms), for whoever checks the page.
  function noteShown(){const t0=scroll.scrollLeft/scale;plot.setAttribute('data-shown',Math.round(t0)+'..'+Math.round(t0+viewWidth()/scale));}
  scroll.addEventListener('scroll',noteShown);
  function zoomTo(s,anchorPx){
    const old=scale;anchorPx=anchorPx===undefined?scroll.clientWidth/2:anchorPx;
    const t=(scroll.scrollLeft+anchorPx-PAD)/old;
    scale=clamp(s);mode='';layout();
    scroll.scrollLeft=PAD+t*scale-anchorPx;noteShown();
  }
  document.getElementById('zoom-in').onclick=()=>zoomTo(scale*2);
  document.getElementById('zoom-out').onclick=()=>zoomTo(scale/2);
  document.getElementById('zoom-fit').onclick=fitAction;
  document.getElementById('zoom-all').onclick=fitAll;
  window.addEventListener('resize',()=>{if(mode==='action')fitAction();else if(mode==='all')fitAll();checkOverflow();});
  scroll.addEventListener('wheel',ev=>{if(!ev.ctrlKey)return;ev.preventDefault();
    zoomTo(scale*(ev.deltaY<0?1.25:0.8),ev.clientX-scroll.getBoundingClientRect().left);},{passive:false});
  function jump(k){
    // Where two holds overlap, that stretch is the violation; otherwise the witnesses' span.
    let marks=Array.from(plot.querySelectorAll('.overlap[data-violation="'+k+'"]'));
    if(!marks.length)marks=Array.from(plot.querySelectorAll('[data-violation="'+k+'"][data-t0]'));
    if(!marks.length)return;
    const ts=marks.map(m=>+m.dataset.t0);
    for(const m of marks)if(m.dataset.t1!==undefined)ts.push(+m.dataset.t1);
    const lo=Math.min(...ts),hi=Math.max(...ts),span=Math.max(hi-lo,1);
    scale=clamp(viewWidth()*0.8/span);mode='';layout();
    scroll.scrollLeft=X(lo)-(scroll.clientWidth-(X(hi)-X(lo)))/2;
    scroll.scrollIntoView({block:'nearest'});
    for(const m of plot.querySelectorAll('.witness[data-violation="'+k+'"]')){m.classList.remove('flash');void m.getBBox();m.classList.add('flash');}
  }
  // --- selection: a ring around the mark, its details pinned in the panel
  function placeRing(){
    const rings=document.getElementById('rings');
    rings.replaceChildren();
    if(!ringed)return;
    const b=ringed.getBBox(),m=ringed.getCTM(),p=plot.getCTM();
    // the mark's box in the plot's coordinates (a g is translated)
    const dx=m&&p?m.e-p.e:0,dy=m&&p?m.f-p.f:0;
    const cx=b.x+b.width/2+dx,cy=b.y+b.height/2+dy;
    const w=Math.max(18,b.width+10),h=Math.max(18,b.height+10);
    rings.appendChild(el('rect',{x:cx-w/2,y:cy-h/2,width:w,height:h,rx:9,'class':'ring'}));
  }
  const evOf=m=>(m.getAttribute('data-ev')||'').split(' ').filter(s=>s!=='');
  function pin(mark,n){
    ringed=mark;placeRing();
    const ids=evOf(mark);
    document.body.setAttribute('data-selected',n===undefined?ids[0]||'':String(n));
    panel.classList.remove('panel-empty');
    const pre=document.createElement('pre');pre.textContent=mark.getAttribute('data-tip')||'(no details)';
    const links=document.createElement('p');links.className='panel-events';
    links.append(ids.length>1?'events:':'event:');
    for(const id of ids){const a=document.createElement('a');a.href='#select='+id;a.dataset.select=id;a.textContent='#'+id;links.append(' ',a);}
    panel.replaceChildren(links,pre);
  }
  function select(n){
    const all=Array.from(plot.querySelectorAll('[data-ev]')).filter(m=>evOf(m).includes(String(n)));
    // the witness ring first, then a mark that is the event itself, then a bar it begins or ends
    const mark=all.find(m=>m.classList.contains('witness'))||all.find(m=>m.classList.contains('mark')&&evOf(m)[0]===String(n))||all[0];
    if(!mark){panel.classList.remove('panel-empty');panel.textContent='Event #'+n+' has no mark on the plot (see timeline.txt).';document.body.setAttribute('data-selected','');return;}
    pin(mark,n);
    // bring it into view: sideways in the plot, then the page
    const t=+(mark.dataset.t0||0);
    if(X(t)<scroll.scrollLeft||X(t)>scroll.scrollLeft+scroll.clientWidth)scroll.scrollLeft=X(t)-scroll.clientWidth/2;
    const r=mark.getBoundingClientRect();
    if(r.top<0||r.bottom>window.innerHeight)window.scrollBy(0,r.top-window.innerHeight/2);
  }
  plot.addEventListener('click',ev=>{const m=ev.target.closest&&ev.target.closest('[data-ev]');if(m)pin(m);});
  document.addEventListener('click',ev=>{
    const a=ev.target.closest&&ev.target.closest('[data-select],[data-jump]');
    if(!a)return;ev.preventDefault();
    if(a.dataset.jump!==undefined)jump(+a.dataset.jump);
    else{select(+a.dataset.select);history.replaceState(null,'','#select='+a.dataset.select);}
  });
  document.addEventListener('mousemove',ev=>{
    const t=ev.target.closest&&ev.target.closest('[data-tip]');
    if(!t){tip.style.display='none';return;}
    tip.textContent=t.getAttribute('data-tip');tip.style.display='block';
    const w=tip.offsetWidth,h=tip.offsetHeight;
    tip.style.left=Math.min(ev.clientX+14,window.innerWidth-w-8)+'px';
    tip.style.top=(ev.clientY+16+h>window.innerHeight?ev.clientY-h-10:ev.clientY+16)+'px';
  });
  // --- labels that do not fit their column: cut in the middle ("redisson_lo…{orders}"), whole on hover
  function shorten(){
    const W=+labels.getAttribute('width');
    for(const t of labels.querySelectorAll('.lane-name,.row-name')){
      const end=t.classList.contains('row-name');
      const room=end?+t.getAttribute('x')-8:W-+t.getAttribute('x')-6;
      if(t.getComputedTextLength()<=room)continue;
      const full=t.textContent;t.setAttribute('data-tip',full);
      const tail=Math.min(10,Math.floor(full.length/3));
      let lo=0,hi=full.length-tail;
      while(lo<hi){const mid=(lo+hi+1)>>1;t.textContent=full.slice(0,mid)+'\u2026'+full.slice(full.length-tail);if(t.getComputedTextLength()<=room)lo=mid;else hi=mid-1;}
      t.textContent=full.slice(0,lo)+'\u2026'+full.slice(full.length-tail);
    }
  }
  // --- nothing cut off: every label inside its SVG, every box inside the page
  function checkOverflow(){
    const bad=[];
    const inside=(svg,sel)=>{const w=+svg.getAttribute('width');
      for(const t of svg.querySelectorAll(sel)){if(t.style.display==='none')continue;const b=t.getBBox();
        if(b.width>0&&(b.x<-0.5||b.x+b.width>w+0.5))bad.push(sel.slice(1)+' '+t.textContent);}};
    inside(plot,'.tick-label');inside(plot,'.server-fault-label');
    inside(labels,'.lane-name');inside(labels,'.row-name');
    const page=document.documentElement.clientWidth;
    for(const box of document.querySelectorAll('header,.violations,.toolbar,.chart,.panel')){
      const r=box.getBoundingClientRect();
      if(r.left<-0.5||r.right>page+0.5||box.scrollWidth>box.clientWidth+1)bad.push((box.id||box.className)+' box');
    }
    if(document.documentElement.scrollWidth>page+1)bad.push('page wider than the window');
    document.body.setAttribute('data-overflow',bad.join('; '));
  }
  // --- the legend: the entries for the marks this plot has; any drawn mark no entry explains is
  // listed in the body's data-unexplained (empty: every one is explained)
  function legend(){
    const items=Array.from(document.querySelectorAll('#legend [data-for]'));
    for(const item of items)item.hidden=!plot.querySelector(item.dataset.for);
    const explained=items.filter(i=>!i.hidden).map(i=>i.dataset.for).join(',');
    const unexplained=new Set();
    for(const m of plot.querySelectorAll('[class]')){
      if(m.closest('#axis,#grid,#rings,.backgrounds')||m.tagName==='text')continue;
      if(/^(lane|faults|witnesses)\b/.test(m.getAttribute('class'))&&m.tagName==='g'&&!m.hasAttribute('data-ev'))continue;
      if(!explained||!m.matches(explained))unexplained.add(m.getAttribute('class'));
    }
    document.body.setAttribute('data-unexplained',Array.from(unexplained).join('; '));
  }
  legend();
  shorten();
  fitAction();
  const m=/^#select=(\d+)$/.exec(location.hash);
  if(m)select(+m[1]);
  else if(location.hash==='#first-violation')jump(0);
  checkOverflow();
  window.addEventListener('hashchange',()=>{const h=/^#select=(\d+)$/.exec(location.hash);if(h)select(+h[1]);});
})();
